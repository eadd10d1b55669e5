import { createHash, createPublicKey, verify } from "node:crypto";
import { sshpk } from "./sshpk.js";

const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";

/** Reads SSH wire-format fields (RFC 4251 `uint32` and `string`) from a buffer. */
class WireReader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}
  uint32(): number {
    if (this.offset + 4 > this.buf.length) throw new Error("truncated");
    const value = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  string(): Buffer {
    const length = this.uint32();
    if (this.offset + length > this.buf.length) throw new Error("truncated");
    const value = this.buf.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
  bytes(n: number): Buffer {
    if (this.offset + n > this.buf.length) throw new Error("truncated");
    const value = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return value;
  }
}

function wireString(value: Buffer | string): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH signature (OpenSSH's PROTOCOL.sshsig) as found in a commit. */
export interface SshSignature {
  /** The signer's public key blob. */
  readonly publicKey: Buffer;
  readonly namespace: string;
  readonly reserved: Buffer;
  readonly hashAlgorithm: string;
  /** The signature blob: `string format, string bytes`. */
  readonly signature: Buffer;
}

/** Reads an armored SSH signature; undefined when it is not one. */
export function parseSshSignature(armored: string): SshSignature | undefined {
  const start = armored.indexOf(BEGIN);
  const end = armored.indexOf(END);
  if (start < 0 || end < start) return undefined;
  const body = armored.slice(start + BEGIN.length, end).replace(/\s+/g, "");
  try {
    const reader = new WireReader(Buffer.from(body, "base64"));
    if (reader.bytes(6).toString("latin1") !== "SSHSIG") return undefined;
    if (reader.uint32() !== 1) return undefined;
    return {
      publicKey: reader.string(),
      namespace: reader.string().toString("utf8"),
      reserved: reader.string(),
      hashAlgorithm: reader.string().toString("latin1"),
      signature: reader.string(),
    };
  } catch {
    return undefined;
  }
}

const HASH_OF_SIGNATURE: Readonly<Record<string, string | null>> = {
  "ssh-ed25519": null,
  "rsa-sha2-256": "sha256",
  "rsa-sha2-512": "sha512",
  "ecdsa-sha2-nistp256": "sha256",
  "ecdsa-sha2-nistp384": "sha384",
  "ecdsa-sha2-nistp521": "sha512",
};

/**
 * Whether `signature` is a valid SSH signature of `message` in `namespace` made by the key whose
 * blob is `keyBlob` (what Go's sshsig.Verify checks: the embedded key is that key, the namespace
 * matches, the hash is sha256 or sha512, the signature verifies). Never throws.
 */
export function verifySshSignature(
  message: string | Buffer,
  signature: SshSignature,
  keyBlob: Buffer,
  namespace: string,
): boolean {
  try {
    if (!signature.publicKey.equals(keyBlob) || signature.namespace !== namespace) return false;
    if (signature.hashAlgorithm !== "sha256" && signature.hashAlgorithm !== "sha512") return false;
    const digest = createHash(signature.hashAlgorithm).update(message).digest();
    const signed = Buffer.concat([
      Buffer.from("SSHSIG"),
      wireString(namespace),
      wireString(signature.reserved),
      wireString(signature.hashAlgorithm),
      wireString(digest),
    ]);
    const inner = new WireReader(signature.signature);
    const format = inner.string().toString("latin1");
    const raw = inner.string();
    const hash = HASH_OF_SIGNATURE[format];
    if (hash === undefined) return false;
    const key = sshpk().parseKey(keyBlob, "rfc4253");
    const publicKey = createPublicKey(key.toString("pkcs8"));
    if (key.type === "ecdsa") {
      const der = sshpk().parseSignature(raw, "ecdsa", "ssh").toBuffer("asn1");
      return verify(hash, signed, publicKey, der);
    }
    return verify(hash, signed, publicKey, raw);
  } catch {
    return false;
  }
}
