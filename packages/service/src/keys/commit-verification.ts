import type { GpgKeyForVerification } from "@kiln/storage";

/** Forgejo's verification reasons (models/asymkey). */
export const NOT_SIGNED = "gpg.error.not_signed_commit";
export const NO_KEY_FOUND = "gpg.error.no_gpg_keys_found";
export const BAD_SIGNATURE = "gpg.error.probable_bad_signature";
export const EXTRACT_SIGN = "gpg.error.extract_sign";
export const NO_COMMITTER_ACCOUNT = "gpg.error.no_committer_account";

/** The signature check of one commit (Forgejo's CommitVerification as the API shows it). */
export interface CommitVerification {
  readonly verified: boolean;
  /** `<user> / <key id or fingerprint>` when verified, else one of Forgejo's `gpg.error.*` keys. */
  readonly reason: string;
  /** The armored signature; empty when unsigned. */
  readonly signature: string;
  /** The signed bytes (the commit without its signature header); empty when unsigned. */
  readonly payload: string;
  /** The account that signed, and the address the key was accepted for. */
  readonly signer?: { readonly name: string; readonly email: string };
}

export const UNSIGNED: CommitVerification = {
  verified: false,
  reason: NOT_SIGNED,
  signature: "",
  payload: "",
};

/** A small map that forgets its oldest entry past `limit`. */
export class Bounded<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly limit: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  set(key: K, value: V): void {
    if (this.map.size >= this.limit) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(key, value);
  }
}

/** The activated addresses recorded on a key when it was added. */
export function emailsOf(key: GpgKeyForVerification): string[] {
  try {
    const parsed: unknown = JSON.parse(key.emails);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (e): e is { email: string; verified: boolean } => typeof e?.email === "string" && e.verified === true,
      )
      .map((e) => e.email);
  } catch {
    return [];
  }
}
