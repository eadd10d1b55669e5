import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { User } from "@kiln/domain";
import { users, webSessions } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { type CachedSession, type CredentialCache, credentialCacheOf } from "./credential-cache.js";
import { hashTokenSecret } from "./token-secret.js";

/** What a session remembers between pages (JSON in `web_session.data`). */
export interface SessionData {
  /** Where to go once signed in (a same-site path). */
  readonly redirectTo?: string;
  /** The authorization request the consent page showed (Forgejo keeps client_id, state, redirect_uri). */
  readonly oauth?: Readonly<Record<string, string>>;
  /** A TOTP secret being enrolled, sealed with the secret box. */
  readonly enrolSecret?: string;
  /** Wrong passcodes and recovery codes tried at the TOTP step. */
  readonly failures?: number;
}

/** A loaded session: its cookie value, who is signed in (or half-way through the TOTP step). */
export interface WebSession {
  readonly cookie: string;
  readonly user: User | undefined;
  readonly pendingUser: User | undefined;
  readonly data: SessionData;
  readonly expiresAt: Date;
}

/** How long the TOTP step may take after the password was accepted. */
const PENDING_LIFETIME_MS = 5 * 60 * 1000;

/**
 * The web pages' sessions, stored in the database (so they survive a restart) under a SHA-256 of
 * the random cookie value, and expiring after `[session] SESSION_LIFE_TIME`. CSRF tokens are an
 * HMAC of the cookie under the instance's secret key, so a page needs no stored state to carry
 * one, even before sign-in.
 */
export class WebSessionService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {}

  /** A fresh cookie value (not yet stored: anonymous visitors leave no row). */
  newCookie(): string {
    return randomBytes(32).toString("base64url");
  }

  /** The CSRF token of a cookie value. */
  csrfToken(cookie: string): string {
    return createHmac("sha256", `kiln-csrf:${this.ctx.settings.security.secretKey}`)
      .update(cookie)
      .digest("base64url");
  }

  /** Whether `token` is the CSRF token of `cookie`. */
  checkCsrf(cookie: string | undefined, token: string | undefined): boolean {
    if (!cookie || !token) return false;
    const expected = Buffer.from(this.csrfToken(cookie));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * The stored session of a cookie, if any and not expired (its user still able to sign in). A
   * session read from the database is kept in the instance's credential cache, like a token, for
   * `[security] CREDENTIAL_CACHE_TTL`: changing or ending it through this process, and any change
   * to its account, drops the entry at once; the TTL bounds how late another process sees a change.
   */
  async load(cookie: string | undefined): Promise<WebSession | undefined> {
    if (!cookie || cookie.length > 128) return undefined;
    const key = cacheKey(cookie);
    const cached = this.cache.get(key)?.session;
    if (cached) return cached.expiresAt.getTime() > Date.now() ? sessionOf(cookie, cached) : undefined;
    const stamp = this.cache.stamp();
    const row = await webSessions.findSession(this.ctx.db, hashTokenSecret(cookie));
    if (!row) return undefined;
    // An account that may no longer sign in (prohibited, deactivated) has no session.
    const mayUse = (u: User | undefined) => (u?.isActive && !u.prohibitLogin ? u : undefined);
    const user = mayUse(row.userId !== null ? await users.findUserById(this.ctx.db, row.userId) : undefined);
    const pendingUser = mayUse(
      row.pendingUserId !== null ? await users.findUserById(this.ctx.db, row.pendingUserId) : undefined,
    );
    const holder = user ?? pendingUser;
    if (!holder) return undefined;
    const session = { user, pendingUser, data: row.data, expiresAt: row.expiresAt };
    this.cache.set(
      key,
      { principal: { user: holder, method: "session", scopes: null }, tokenId: 0, session },
      stamp,
    );
    return sessionOf(cookie, session);
  }

  /**
   * Starts a session for a user who passed the password (and, for `pending`, still owes the TOTP
   * step). Always a new cookie value, so a session id planted before sign-in is worthless.
   */
  async start(user: User, pending: boolean, data: SessionData): Promise<string> {
    const cookie = this.newCookie();
    const lifetime = pending ? PENDING_LIFETIME_MS : this.ctx.settings.session.sessionLifeTime * 1000;
    await this.ctx.db.transaction().execute(async (trx) => {
      await webSessions.saveSession(trx, {
        id: hashTokenSecret(cookie),
        userId: pending ? null : user.id,
        pendingUserId: pending ? user.id : null,
        data: JSON.stringify(data),
        expiresAt: new Date(Date.now() + lifetime),
      });
      // A completed sign-in is the user's last login (Forgejo's handleSignInFull), which the
      // user's `last_login` and `/nodeinfo`'s active-user counts show.
      if (!pending) await users.touchLastLogin(trx, user.id, new Date());
    });
    return cookie;
  }

  /**
   * Changes what a session remembers. A signed-in session's lifetime starts again (it is in use);
   * a pending one keeps its short expiry. False when the session is gone (signed out or dropped
   * meanwhile): it is not brought back.
   */
  async update(session: WebSession, data: SessionData): Promise<boolean> {
    const updated = await webSessions.updateSession(this.ctx.db, {
      id: hashTokenSecret(session.cookie),
      userId: session.user?.id ?? null,
      pendingUserId: session.user ? null : (session.pendingUser?.id ?? null),
      data: JSON.stringify(data),
      expiresAt: session.user
        ? new Date(Date.now() + this.ctx.settings.session.sessionLifeTime * 1000)
        : session.expiresAt,
    });
    // After the write: a load that read the old row meanwhile does not keep it (its stamp is old).
    this.cache.forget(cacheKey(session.cookie));
    return updated;
  }

  /** Ends a session (sign-out, or the pending session once its TOTP step is done). */
  async end(cookie: string): Promise<void> {
    await webSessions.deleteSession(this.ctx.db, hashTokenSecret(cookie));
    this.cache.forget(cacheKey(cookie));
  }

  /** Removes expired sessions; how many. */
  sweep(): Promise<number> {
    return webSessions.deleteExpiredSessions(this.ctx.db);
  }
}

/** A session's key in the credential cache (apart from tokens' hashes). */
function cacheKey(cookie: string): string {
  return `session:${hashTokenSecret(cookie)}`;
}

function sessionOf(cookie: string, cached: CachedSession): WebSession {
  let data: SessionData = {};
  try {
    data = JSON.parse(cached.data) as SessionData;
  } catch {
    data = {};
  }
  return { cookie, user: cached.user, pendingUser: cached.pendingUser, data, expiresAt: cached.expiresAt };
}
