import {
  type GpgKeyEmailEntry,
  type GpgKeyEntry,
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type User,
} from "@kiln/domain";
import { emails as emailRows, type GpgKeyWithSubkeys, gpgKeys, isUniqueViolation } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import {
  type ParsedGpgKey,
  parseArmoredGpgKeys,
  readArmoredSignature,
  readStoredKey,
  verifyDetached,
} from "./gpg-key-parse.js";
import { verificationToken } from "./verification-token.js";

const KEY_ID_USED = "A key with the same id already exists";

function invalidSignature(token: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${token}`,
  );
}

/** A stored key as the domain sees it (its e-mails decoded). */
export function toGpgKeyEntry(row: GpgKeyWithSubkeys | Omit<GpgKeyWithSubkeys, "subkeys">): GpgKeyEntry {
  let emails: GpgKeyEmailEntry[] = [];
  try {
    const parsed: unknown = JSON.parse(row.emails);
    if (Array.isArray(parsed)) emails = parsed as GpgKeyEmailEntry[];
  } catch {
    emails = [];
  }
  const subkeys = "subkeys" in row ? row.subkeys.map((s) => toGpgKeyEntry(s)) : [];
  return { ...row, emails, subkeys };
}

/**
 * GPG keys of users (Forgejo's models/asymkey gpg_key_add.go, gpg_key_verify.go and the routes
 * of routers/api/v1/user/gpg_key.go): an armored keyring adds each of its keys, with its
 * subkeys; a key needs an activated e-mail address of its owner among its identities, or a
 * signature of the verification token (which also marks it verified).
 */
export class GpgKeyService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The token `doer` signs to prove holding a key (the next minute's; the current one is still accepted). */
  token(doer: User): string {
    return verificationToken(doer, 1);
  }

  async list(owner: User, page: PageRequest): Promise<Paged<GpgKeyEntry>> {
    const found = await gpgKeys.listGpgKeys(this.ctx.db, owner.id, page);
    return { items: found.items.map(toGpgKeyEntry), total: found.total };
  }

  /** A user's primary key by id; 404 when they have none of that id. */
  async get(owner: User, id: number): Promise<GpgKeyEntry> {
    const key = await gpgKeys.findGpgKey(this.ctx.db, owner.id, id);
    if (!key) throw new NotFoundError(`public key does not exist [id: ${id}]`);
    return toGpgKeyEntry(key);
  }

  /**
   * Adds the keys of an armored keyring to `owner` (Forgejo's AddGPGKey) and answers the first.
   * With a signature of the token, only the key that made it is added, verified. 422 for a text
   * that does not parse, a key id already stored or a bad signature; 404 (Forgejo's) when no
   * identity of a key is an activated address of the owner.
   */
  async create(doer: User, owner: User, armored: string, signature?: string): Promise<GpgKeyEntry> {
    const token = verificationToken(doer, 1);
    let keys = await parseArmoredGpgKeys(armored);
    let verified = false;
    if (signature) {
      const signer = await this.signerOfToken(
        doer,
        signature,
        keys.map((k) => k.key),
      );
      const key = keys.find((k) => k.keyId === signer || k.subkeys.some((s) => s.keyId === signer));
      if (!key) throw invalidSignature(token);
      keys = [key];
      verified = true;
    }
    return this.ctx.db.transaction().execute(async (trx) => {
      const activated = (await emailRows.listEmails(trx, owner.id)).filter((e) => e.isActivated);
      const added: GpgKeyEntry[] = [];
      for (const key of keys) {
        if (await gpgKeys.primaryKeyIdUsed(trx, key.keyId)) throw new InvalidArgumentError(KEY_ID_USED);
        const wanted = new Set(key.emails.map((e) => e.trim().toLowerCase()));
        const matched = activated.filter((e) => wanted.has(e.email.toLowerCase()));
        if (!verified && matched.length === 0) {
          throw new NotFoundError(
            `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`,
          );
        }
        try {
          const row = await gpgKeys.insertGpgKey(trx, storedKey(owner, key, matched, verified));
          added.push(toGpgKeyEntry(row));
        } catch (error) {
          if (isUniqueViolation(error, "gpg_key_primary_key_id_key"))
            throw new InvalidArgumentError(KEY_ID_USED);
          throw error;
        }
      }
      const [first] = added;
      if (!first) throw new InvalidArgumentError("failed to parse gpg key no key found");
      return first;
    });
  }

  /**
   * Marks a key of `owner` verified by a signature of the token (Forgejo's VerifyGPGKey): 404 when
   * the owner has no such key, 422 when the signature is not the key's signature of the token.
   */
  async verify(owner: User, keyIdText: string, signature: string): Promise<GpgKeyEntry> {
    const trimmed = keyIdText.trim().replace(/^0+/, "").toUpperCase();
    if (trimmed === "" || trimmed.length > 16 || !/^[0-9A-F]+$/.test(trimmed)) throw new NotFoundError();
    const keyId = trimmed.padStart(16, "0");
    const key = await gpgKeys.findGpgKeyByKeyId(this.ctx.db, owner.id, keyId);
    if (!key) throw new NotFoundError(`public key does not exist [id: 0]`);
    const stored = (await gpgKeys.gpgKeysForVerification(this.ctx.db, [], [keyId])).find(
      (k) => k.id === key.id,
    );
    const parsed = stored ? await readStoredKey(stored.armored) : undefined;
    const signer = parsed ? await this.signerOfToken(owner, signature, [parsed]) : undefined;
    if (!signer) throw invalidSignature(verificationToken(owner, 1));
    if (signer !== key.keyId && !key.subkeys.some((s) => s.keyId === signer)) throw new NotFoundError();
    await gpgKeys.markGpgKeyVerified(this.ctx.db, key.id);
    return { ...toGpgKeyEntry(key), verified: true };
  }

  /** Deletes a user's primary key with its subkeys; 404 when they have none of that id. */
  async delete(owner: User, id: number): Promise<void> {
    const removed = await this.ctx.db.transaction().execute((trx) => gpgKeys.deleteGpgKey(trx, owner.id, id));
    if (!removed) throw new NotFoundError(`public key does not exist [id: ${id}]`);
  }

  /** The key id that signed this or the previous minute's token (with `\n` or `\r\n` after it, as Forgejo tries). */
  private async signerOfToken(
    doer: User,
    armoredSignature: string,
    keys: Parameters<typeof verifyDetached>[2],
  ): Promise<string | undefined> {
    const signature = await readArmoredSignature(armoredSignature);
    if (!signature) throw invalidSignature(verificationToken(doer, 1));
    for (const token of [verificationToken(doer, 1), verificationToken(doer, 0)]) {
      for (const suffix of ["", "\n", "\r\n"]) {
        const signer = await verifyDetached(token + suffix, signature, keys);
        if (signer) return signer;
      }
    }
    return undefined;
  }
}

function storedKey(
  owner: User,
  key: ParsedGpgKey,
  matched: readonly { email: string }[],
  verified: boolean,
): gpgKeys.NewGpgKey {
  const part = (p: ParsedGpgKey["subkeys"][number]) => ({
    ownerId: owner.id,
    keyId: p.keyId,
    content: p.content,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
    canSign: p.canSign,
    canEncryptComms: p.canEncryptComms,
    canEncryptStorage: p.canEncryptStorage,
    canCertify: p.canCertify,
  });
  return {
    ...part(key),
    emails: JSON.stringify(matched.map((e) => ({ email: e.email, verified: true }))),
    verified,
    armored: key.armored,
    subkeys: key.subkeys.map(part),
  };
}
