import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with scrypt, a memory-hard KDF built into Node (no native dependency).
 * Stored in PHC string format so the parameters travel with the hash and can be raised later:
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64, no padding). ln=15, r=8 uses 32 MiB per hash.
 */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Hashes a password for storage. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, LOG_N, R, P);
  return `$scrypt$ln=${LOG_N},r=${R},p=${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Checks a password against a stored hash in constant time. An empty or foreign hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return false;
  const [, ln, r, p, salt, hash] = m;
  const expected = Buffer.from(hash!, "base64url");
  const key = await scrypt(password, Buffer.from(salt!, "base64url"), Number(ln), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
