import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";

/** The most redirect URIs one application may register (Forgejo sets no bound; Kiln does). */
export const MAX_REDIRECT_URIS = 32;
/** The longest redirect URI accepted. */
export const MAX_REDIRECT_URI_LENGTH = 2048;

/** Schemes a redirect URI may never use: a browser would run or render them instead of returning. */
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:", "blob:", "about:"]);

/**
 * Whether a redirect URI is acceptable: an absolute URI (custom schemes of native apps included,
 * as Forgejo allows them) without a fragment (RFC 6749 §3.1.2) and not a script or data URI.
 */
export function isValidRedirectUri(uri: string): boolean {
  if (!URL.canParse(uri) || /\s/.test(uri)) return false;
  const url = new URL(uri);
  if (FORBIDDEN_SCHEMES.has(url.protocol) || uri.includes("#")) return false;
  if ((url.protocol === "http:" || url.protocol === "https:") && url.hostname === "") return false;
  return true;
}

const redirectUri = v.pipe(
  v.string(),
  v.maxLength(MAX_REDIRECT_URI_LENGTH),
  v.check(isValidRedirectUri, "invalid redirect URI"),
);

/** Body of `POST /user/applications/oauth2` and `PATCH …/{id}` (Forgejo's CreateOAuth2ApplicationOptions). */
export const CreateOAuth2ApplicationOptions = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(255)),
  confidential_client: v.optional(v.boolean()),
  redirect_uris: v.pipe(v.array(redirectUri), v.minLength(1), v.maxLength(MAX_REDIRECT_URIS)),
});

/** An OAuth2 application (Forgejo's OAuth2Application); `client_secret` only when just (re)generated. */
export const OAuth2Application = v.object({
  id: int64(),
  name: v.string(),
  client_id: v.string(),
  client_secret: v.string(),
  redirect_uris: v.array(v.string()),
  confidential_client: v.boolean(),
  created: dateTime(),
});
