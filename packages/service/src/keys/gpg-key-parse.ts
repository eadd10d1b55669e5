import { InvalidArgumentError } from "@kiln/domain";
import type * as openpgp from "openpgp";

/** One public key (primary or subkey) as Forgejo's parseGPGKey/parseSubGPGKey describe it. */
export interface ParsedGpgKeyPart {
  /** 16 upper-case hex digits. */
  readonly keyId: string;
  /** Base64 of the serialized public key packet (Forgejo's base64EncPubKey). */
  readonly content: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly canSign: boolean;
  readonly canEncryptComms: boolean;
  readonly canEncryptStorage: boolean;
  readonly canCertify: boolean;
}

/** A primary key of an armored keyring, with its subkeys, identities' e-mails and armored text. */
export interface ParsedGpgKey extends ParsedGpgKeyPart {
  readonly subkeys: readonly ParsedGpgKeyPart[];
  /** The e-mail addresses of its identities that are not revoked. */
  readonly emails: readonly string[];
  /** The key alone, armored (what verification reads back). */
  readonly armored: string;
  readonly key: openpgp.PublicKey;
}

type OpenPgp = typeof openpgp;

let loading: Promise<OpenPgp> | undefined;

/**
 * OpenPGP.js, loaded on first use: it is large (about 4 MiB of heap and 15 MiB resident once
 * compiled) and only GPG keys and signed commits need it, which many instances never see.
 */
function load(): Promise<OpenPgp> {
  loading ??= import("openpgp");
  return loading;
}

/** The algorithms that cannot sign, and those that can encrypt, as Forgejo's parseGPGKey judges. */
function capabilities(pgp: OpenPgp, algorithm: number): { canSign: boolean; canEncrypt: boolean } {
  const alg = pgp.enums.publicKey;
  const cannotSign = [alg.rsaEncrypt, alg.elgamal, alg.ecdh, alg.x25519, alg.x448] as number[];
  const canEncrypt = [
    alg.rsaEncryptSign,
    alg.rsaEncrypt,
    alg.elgamal,
    alg.ecdh,
    alg.x25519,
    alg.x448,
  ] as number[];
  return { canSign: !cannotSign.includes(algorithm), canEncrypt: canEncrypt.includes(algorithm) };
}

/** A key's 16-hex id, upper-case as Forgejo's KeyIdString. */
export function keyIdOf(id: openpgp.KeyID): string {
  return id.toHex().toUpperCase();
}

function describePart(
  pgp: OpenPgp,
  packet:
    | openpgp.PublicKeyPacket
    | openpgp.PublicSubkeyPacket
    | openpgp.SecretKeyPacket
    | openpgp.SecretSubkeyPacket,
  expiresAt: Date | null,
): ParsedGpgKeyPart {
  const list = new pgp.PacketList<openpgp.AnyPacket>();
  list.push(packet);
  const { canSign, canEncrypt } = capabilities(pgp, packet.algorithm);
  return {
    keyId: keyIdOf(packet.getKeyID()),
    content: Buffer.from(list.write()).toString("base64"),
    createdAt: packet.getCreationTime(),
    expiresAt,
    canSign,
    canEncryptComms: canEncrypt,
    canEncryptStorage: canEncrypt,
    canCertify: canSign,
  };
}

/** Forgejo's ErrGPGKeyParsing: 422 `failed to parse gpg key <reason>`. */
function parseError(error: unknown): InvalidArgumentError {
  const reason = error instanceof Error ? error.message : String(error);
  return new InvalidArgumentError(`failed to parse gpg key ${reason}`);
}

/**
 * Reads every key of an armored keyring (Forgejo's checkArmoredGPGKeyString), private keys as
 * their public part; two blocks of one primary key count once. A text that is not an armored
 * keyring is an InvalidArgumentError with Forgejo's message, never anything else.
 */
export async function parseArmoredGpgKeys(armored: string): Promise<ParsedGpgKey[]> {
  const pgp = await load();
  let keys: openpgp.Key[];
  try {
    keys = await pgp.readKeys({ armoredKeys: armored });
  } catch (error) {
    throw parseError(error);
  }
  if (keys.length === 0) throw parseError(new Error("no armored data found"));
  const seen = new Set<string>();
  const parsed: ParsedGpgKey[] = [];
  for (const any of keys) {
    const key = any.isPrivate() ? any.toPublic() : (any as openpgp.PublicKey);
    const keyId = keyIdOf(key.getKeyID());
    if (seen.has(keyId)) continue;
    seen.add(keyId);
    let expiry: Date | number | null = null;
    try {
      expiry = await key.getExpirationTime();
    } catch {
      expiry = null;
    }
    const expiresAt = expiry instanceof Date ? expiry : null;
    const emails: string[] = [];
    for (const user of key.users) {
      const email = user.userID?.email;
      if (!email || user.revocationSignatures.length > 0) continue;
      emails.push(email);
    }
    parsed.push({
      ...describePart(pgp, key.keyPacket, expiresAt),
      subkeys: key.subkeys.map((s) => describePart(pgp, s.keyPacket, expiresAt)),
      emails,
      armored: key.armor(),
      key,
    });
  }
  return parsed;
}

/** Reads an armored detached signature; undefined when it is not one. */
export async function readArmoredSignature(armored: string): Promise<openpgp.Signature | undefined> {
  try {
    return await (await load()).readSignature({ armoredSignature: armored });
  } catch {
    return undefined;
  }
}

/**
 * The key (primary or subkey) of `keys` that made `signature` over `data`, as its 16-hex id, or
 * undefined when none did. Expiry is judged at the signature's own time, as a commit keeps the
 * validity it had when it was signed.
 */
export async function verifyDetached(
  data: string | Uint8Array,
  signature: openpgp.Signature,
  keys: readonly openpgp.PublicKey[],
): Promise<string | undefined> {
  if (keys.length === 0) return undefined;
  try {
    const pgp = await load();
    const message = await pgp.createMessage({
      binary: typeof data === "string" ? Buffer.from(data, "utf8") : data,
    });
    const created = signature.packets[0]?.created ?? undefined;
    const result = await pgp.verify({
      message,
      signature,
      verificationKeys: [...keys],
      ...(created ? { date: created } : {}),
    });
    for (const sig of result.signatures) {
      try {
        await sig.verified;
        return keyIdOf(sig.keyID);
      } catch {
        // not this one
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The 16-hex ids of the keys a signature names as its issuer. */
export function signingKeyIds(signature: openpgp.Signature): string[] {
  return signature.getSigningKeyIDs().map(keyIdOf);
}

/** Reads one armored public key stored earlier; undefined when it no longer parses. */
export async function readStoredKey(armored: string): Promise<openpgp.PublicKey | undefined> {
  try {
    const key = await (await load()).readKey({ armoredKey: armored });
    return key.isPrivate() ? key.toPublic() : (key as openpgp.PublicKey);
  } catch {
    return undefined;
  }
}
