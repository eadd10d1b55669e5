import type { User } from "@kiln/domain";
import type { ServiceContext } from "../context.js";
import type { Principal } from "./principal.js";

/**
 * A resolved access token: the principal it proves and the token's id (for invalidation); or a
 * web session (its principal is the session's user, signed in or pending, and `tokenId` 0).
 */
export interface CachedCredential {
  readonly principal: Principal;
  readonly tokenId: number;
  readonly session?: CachedSession;
}

/** What a web session's row says, as `WebSessionService.load` read it. */
export interface CachedSession {
  readonly user: User | undefined;
  readonly pendingUser: User | undefined;
  readonly data: string;
  readonly expiresAt: Date;
}

/** How a cache behaves: entries live `ttl` ms (0 disables it), at most `maxEntries` of them. */
export interface CredentialCacheOptions {
  readonly ttl: number;
  readonly maxEntries?: number;
  /** The clock, in ms; tests inject one. */
  readonly now?: () => number;
}

/** Forgejo keeps no such cache; a few thousand live tokens cover a busy instance. */
export const DEFAULT_MAX_CREDENTIALS = 4096;

interface Entry {
  readonly value: CachedCredential;
  readonly expires: number;
}

/**
 * Resolved access tokens, keyed by the token's hash, in this process (`[security]
 * CREDENTIAL_CACHE_TTL`). A least-recently-used map bounded in size. Writes made through this
 * process's services drop the affected entries at once; the TTL bounds how long another process
 * sharing the database may see a change late. Failures are never cached, so a token created a
 * moment ago is found on its first use.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttl: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Bumped by every invalidation, so a lookup that raced with one is not stored. */
  private generation = 0;

  constructor(options: CredentialCacheOptions) {
    this.ttl = Math.max(0, options.ttl);
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_CREDENTIALS);
    this.now = options.now ?? Date.now;
  }

  /** The number of entries held (expired ones included until they are next touched). */
  get size(): number {
    return this.entries.size;
  }

  /** A token to hand to `set`: the state of invalidations when a database lookup starts. */
  stamp(): number {
    return this.generation;
  }

  /** The cached credential for this token hash, if present and not expired. */
  get(tokenHash: string): CachedCredential | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    this.entries.delete(tokenHash);
    if (entry.expires <= this.now()) return undefined;
    this.entries.set(tokenHash, entry); // most recently used last
    return entry.value;
  }

  /**
   * Stores a credential read from the database, unless caching is off or an invalidation happened
   * since `stamp` was taken (the row read may predate it).
   */
  set(tokenHash: string, value: CachedCredential, stamp: number): void {
    if (this.ttl === 0 || stamp !== this.generation) return;
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { value, expires: this.now() + this.ttl });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Drops the entry under one key (a web session that changed or ended). */
  forget(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Drops the entry of a token (it was deleted or its scopes changed). */
  forgetToken(tokenId: number): void {
    this.forgetWhere((v) => v.tokenId === tokenId);
  }

  /** Drops every entry of an account (it was changed or deleted). */
  forgetUser(userId: number): void {
    this.forgetWhere((v) => v.principal.user.id === userId);
  }

  /** Drops everything. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  private forgetWhere(match: (value: CachedCredential) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) {
      if (match(entry.value)) this.entries.delete(key);
    }
  }
}

const perInstance = new WeakMap<ServiceContext, CredentialCache>();

/**
 * The credential cache of an instance: one per service context, shared by the services that read
 * credentials (AuthService) and those that change them (tokens, users).
 */
export function credentialCacheOf(ctx: ServiceContext): CredentialCache {
  let cache = perInstance.get(ctx);
  if (!cache) {
    cache = new CredentialCache({ ttl: ctx.settings.security.credentialCacheTtl });
    perInstance.set(ctx, cache);
  }
  return cache;
}
