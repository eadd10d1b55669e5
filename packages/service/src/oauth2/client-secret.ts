import { randomBytes, randomUUID } from "node:crypto";

const BASE32_LOWER = "abcdefghijklmnopqrstuvwxyz234567";

/** Lower-case base32 without padding, as Forgejo encodes its secrets and codes. */
export function base32Lower(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_LOWER[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_LOWER[(value << (5 - bits)) & 31];
  return out;
}

/** A new client secret: `gto_` and 256 random bits, Forgejo's shape (the prefix helps secret scanners). */
export function generateClientSecret(): string {
  return `gto_${base32Lower(randomBytes(32))}`;
}

/** A new client id: a random UUID, as Forgejo's. */
export function generateClientId(): string {
  return randomUUID();
}

/** A new authorization code: 256 random bits, base32. */
export function generateAuthorizationCode(): string {
  return base32Lower(randomBytes(32));
}
