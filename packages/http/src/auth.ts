import {
  hasScopes,
  NotFoundError,
  PermissionDeniedError,
  requiredScopeNames,
  UnauthorizedError,
} from "@kiln/domain";
import { actorOf, type Credentials, maySudo, type Principal, requireSiteAdmin } from "@kiln/service";
import type { AppContext } from "./env.js";
import { requestHeader, requestTarget } from "./request-header.js";
import type { AnyRoute } from "./route.js";

/**
 * Reads the caller's credentials (decision 8, docs/decisions.md) and sets `principal` and `actor`, which start
 * anonymous (the request's variables are set before any handler runs). Credentials
 * that are present but wrong are 401 on every route, as in Forgejo; no credentials means
 * anonymous. Afterwards, an admin may act as another user with `?sudo=` or the `Sudo` header.
 * Returns undefined when the caller is anonymous and nothing had to be looked up, so that the
 * request can go on without waiting; otherwise a promise of the lookup.
 */
export function identify(c: AppContext): Promise<void> | undefined {
  const credentials = readCredentials(c);
  const sudo =
    (requestTarget(c).includes("sudo=") ? c.req.query("sudo") : undefined) || requestHeader(c, "sudo");
  return credentials || sudo ? signIn(c, credentials, sudo) : undefined;
}

async function signIn(
  c: AppContext,
  credentials: Credentials | null,
  sudo: string | undefined,
): Promise<void> {
  const services = c.get("services");
  let principal: Principal | null = credentials ? await services.auth.authenticate(credentials) : null;
  if (sudo) {
    if (!principal || !maySudo(principal.user))
      throw new PermissionDeniedError("Only administrators allowed to sudo.");
    const target = await services.users.findByName(sudo);
    if (!target) throw new NotFoundError(`user does not exist [name: ${sudo}]`);
    principal = { ...principal, user: target };
  }
  c.set("principal", principal);
  c.set("actor", actorOf(principal));
}

function readCredentials(c: AppContext): Credentials | null {
  const header = requestHeader(c, "authorization");
  if (!header) return null;
  return parseAuthorization(header, requestHeader(c, "x-forgejo-otp") ?? requestHeader(c, "x-gitea-otp"));
}

/**
 * Reads an `Authorization` header: `token <t>` or `Bearer <t>` (any case), or Basic with a
 * user name and a password or token; an OTP header travels with Basic credentials.
 */
export function parseAuthorization(header: string, otp: string | undefined): Credentials {
  const space = header.indexOf(" ");
  const scheme = space < 0 ? header : header.slice(0, space);
  const value = space < 0 ? "" : header.slice(space + 1).trim();
  if (scheme === "token" || scheme.toLowerCase() === "bearer") return { kind: "token", token: value };
  if (scheme.toLowerCase() !== "basic")
    throw new UnauthorizedError(`unsupported authorization scheme: ${scheme}`);
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return {
    kind: "basic",
    username: colon < 0 ? decoded : decoded.slice(0, colon),
    password: colon < 0 ? "" : decoded.slice(colon + 1),
    ...(otp ? { otp } : {}),
  };
}

/**
 * A route's access checks, in Forgejo's order: the token's scopes (only when a token is used;
 * 403 naming the scopes), then sign-in (401), then the route's own requirement (403/401).
 */
export function checkAccess(route: AnyRoute, c: AppContext): void {
  const principal = c.get("principal");
  if (principal?.scopes && route.scopes && route.scopes.length > 0) {
    const level = route.method === "get" ? "read" : "write";
    if (!hasScopes(principal.scopes, level, route.scopes)) {
      throw new PermissionDeniedError(
        `token does not have at least one of required scope(s): [${requiredScopeNames(level, route.scopes).join(" ")}]`,
      );
    }
  }
  if (route.access === "public") return;
  if (!principal) throw new UnauthorizedError("token is required");
  if (route.access === "site-admin") requireSiteAdmin(principal.user);
  if (route.access === "password" && principal.method !== "password") {
    throw new UnauthorizedError("auth method not allowed");
  }
}

/** The signed-in principal of a route whose access is not "public". */
export function requirePrincipal(principal: Principal | null): Principal {
  if (!principal) throw new UnauthorizedError("token is required");
  return principal;
}
