import { hash, randomBytes } from "node:crypto";

/** A new access token secret: 40 hex characters, the shape Forgejo clients expect. */
export function generateTokenSecret(): string {
  return randomBytes(20).toString("hex");
}

/**
 * The stored form of a token secret. Secrets are 160 random bits, so an unsalted SHA-256 is
 * enough to make a leaked database useless for authentication, and it allows indexed lookup.
 */
export function hashTokenSecret(secret: string): string {
  // The one-shot digest: every authenticated request hashes its token before the cache lookup.
  return hash("sha256", secret, "hex");
}
