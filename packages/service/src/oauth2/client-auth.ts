import { timingSafeEqual } from "node:crypto";
import type { OAuth2ApplicationRecord } from "@kiln/storage";
import { hashTokenSecret } from "../auth/token-secret.js";

/** Forgejo's token types (the `tt` claim of access and refresh tokens). */
export const ACCESS = 0;
export const REFRESH = 1;

/** Whether `secret` is the application's client secret (compared in constant time; never empty). */
export function secretMatches(app: OAuth2ApplicationRecord, secret: string): boolean {
  const given = Buffer.from(hashTokenSecret(secret), "hex");
  const stored = Buffer.from(app.clientSecretHash, "hex");
  return secret !== "" && given.length === stored.length && timingSafeEqual(given, stored);
}
