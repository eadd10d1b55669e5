import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Encrypts small secrets at rest (TOTP seeds) with AES-256-GCM under a key derived from the
 * instance's `[security] SECRET_KEY`. Output: base64url(iv | tag | ciphertext).
 */
export function sealSecret(secretKey: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secretKey), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Decrypts what sealSecret produced; throws when the key is wrong or the data was altered. */
export function openSecret(secretKey: string, sealed: string): string {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secretKey), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

function deriveKey(secretKey: string): Buffer {
  return createHash("sha256").update(`kiln-secret-box:${secretKey}`).digest();
}
