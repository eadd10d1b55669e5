import { InvalidArgumentError, type SshSettings } from "@kiln/domain";
import type Sshpk from "sshpk";
import { sshpk } from "./sshpk.js";

/** An SSH public key checked as Forgejo's CheckPublicKeyString checks it. */
export interface ParsedSshKey {
  /** `<type> <base64> <comment>`, trimmed: what is stored and shown. */
  readonly content: string;
  /** `SHA256:<base64 without padding>`. */
  readonly fingerprint: string;
  /** The key blob (RFC 4253 wire form). */
  readonly blob: Buffer;
}

const SSH2_START = "---- BEGIN SSH2 PUBLIC KEY ----";

/** Forgejo's `Invalid key content: …` refusal (422). */
function invalid(reason: string): InvalidArgumentError {
  return new InvalidArgumentError(`Invalid key content: ${reason}`);
}

/** The key type named inside a base64 key blob (Forgejo's extractTypeFromBase64Key). */
function typeInBlob(base64: string): { type: string; blob: Buffer } {
  const blob = /^[A-Za-z0-9+/]*={0,2}$/.test(base64) ? Buffer.from(base64, "base64") : undefined;
  if (!blob || blob.length < 4) {
    throw invalid("extractTypeFromBase64Key: invalid key format: illegal base64 data at input byte 0");
  }
  const length = blob.readUInt32BE(0);
  if (blob.length < 4 + length) {
    throw invalid(`extractTypeFromBase64Key: invalid key format: not enough length ${length}`);
  }
  return { type: blob.subarray(4, 4 + length).toString("latin1"), blob };
}

/** The base64 body of an RFC 4716 (`---- BEGIN SSH2 PUBLIC KEY ----`) key, headers skipped. */
function ssh2Body(content: string): { base64: string; comment: string } {
  const lines = content.split(/\r?\n/).slice(1);
  let comment = "";
  const body: string[] = [];
  let continued = false;
  for (const line of lines) {
    if (line.startsWith("---- END SSH2 PUBLIC KEY ----")) break;
    if (continued || line.includes(":")) {
      const match = /^Comment:\s*"?(.*?)"?\\?$/.exec(line);
      if (match) comment = match[1] ?? "";
      continued = line.endsWith("\\");
      continue;
    }
    body.push(line.trim());
  }
  return { base64: body.join(""), comment };
}

/** The size of a key in bits, by Forgejo's type names (`ed25519`, `ecdsa`, `rsa`, `dsa`). */
function typeAndSize(key: Sshpk.Key): { type: string; size: number } {
  return { type: key.type === "ed25519" ? "ed25519" : key.type, size: key.size };
}

/**
 * Parses and checks one SSH public key line (or an RFC 4716 block) like Forgejo's
 * CheckPublicKeyString: the type given must match the blob's, the blob must be a key, and the key
 * must meet `[ssh.minimum_key_sizes]`. Every refusal is an InvalidArgumentError with Forgejo's text.
 */
export function parseSshPublicKey(text: string, settings: SshSettings): ParsedSshKey {
  const trimmed = text.trim();
  let declared = "";
  let base64: string;
  let comment = "";
  if (trimmed.startsWith(SSH2_START)) {
    ({ base64, comment } = ssh2Body(trimmed));
  } else {
    const parts = trimmed.replace(/\r\n|\n/g, "").split(" ");
    if (parts.length === 1) base64 = parts[0] ?? "";
    else {
      declared = parts[0] ?? "";
      base64 = parts[1] ?? "";
      comment = parts.slice(2).join(" ");
    }
  }
  if (base64 === "") throw invalid("empty key");
  const { type, blob } = typeInBlob(base64);
  if (declared !== "" && declared !== type) {
    throw invalid(`key type and content does not match: ${declared} - ${type}`);
  }
  let key: Sshpk.Key;
  try {
    key = sshpk().parseKey(blob, "rfc4253");
  } catch (error) {
    throw invalid(`invalid ssh public key: ${(error as Error).message}`);
  }
  const content = `${type} ${base64} ${comment}`.trim();
  if (settings.minimumKeySizeCheck) {
    const { type: kind, size } = typeAndSize(key);
    const min = settings.minimumKeySizes[kind];
    if (min === undefined) throw invalid(`SSHNativeParsePublicKey: key type is not allowed: ${kind}`);
    if (size < min) throw invalid(`key length is not enough: got ${size}, needs ${min}`);
  }
  return { content, fingerprint: key.fingerprint("sha256").toString(), blob };
}
