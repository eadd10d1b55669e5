import { InvalidArgumentError, type Settings } from "@kiln/domain";
import { type CheckedRemote, checkRemote, parseRemoteUrl } from "@kiln/git";
import { openSecret, sealSecret } from "../auth/secret-box.js";
import { remotePolicy } from "../outbound/remote-policy.js";
import { withGitErrors } from "../repos/git-errors.js";

/** Basic-auth credentials of a mirror remote. */
export interface MirrorCredentials {
  readonly username: string;
  readonly password: string;
}

/** A mirror remote as stored: its address without credentials, and the credentials apart. */
export interface MirrorAddress {
  readonly address: string;
  readonly auth?: MirrorCredentials;
}

/**
 * Splits a remote address into the URL kept (no user information: it is shown to repository
 * admins and logged) and its credentials: those given apart win over those in the URL, as in
 * Forgejo's ParseRemoteAddr. The URL must read the same to git and to browsers (migration's
 * rules); throws invalid-argument ("Invalid URL: …") otherwise.
 */
export function splitAddress(raw: string, given?: Partial<MirrorCredentials>): MirrorAddress {
  const parsed = parseRemoteUrl(raw.trim());
  const url = new URL(parsed.href);
  const fromUrl =
    url.username || url.password
      ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
      : undefined;
  url.username = "";
  url.password = "";
  const explicit =
    given && (given.username || given.password)
      ? { username: given.username ?? "", password: given.password ?? "" }
      : undefined;
  const auth = explicit ?? fromUrl;
  return { address: url.href, ...(auth ? { auth } : {}) };
}

/** Credentials sealed for the database with the instance's secret key ("" for none). */
export function sealCredentials(settings: Settings, auth: MirrorCredentials | undefined): string {
  return auth ? sealSecret(settings.security.secretKey, JSON.stringify(auth)) : "";
}

/** Credentials read back from the database; undefined for none, or when the secret key changed. */
export function openCredentials(settings: Settings, sealed: string): MirrorCredentials | undefined {
  if (sealed === "") return undefined;
  try {
    const value = JSON.parse(openSecret(settings.security.secretKey, sealed)) as MirrorCredentials;
    return { username: String(value.username ?? ""), password: String(value.password ?? "") };
  } catch {
    return undefined;
  }
}

/**
 * Checks a mirror address with migration's rules ({@link remotePolicy}: a public host, or a local
 * one with `[migrations] ALLOW_LOCALNETWORKS`), resolving its host once: git is pinned to the answer.
 */
export async function checkMirrorAddress(settings: Settings, address: string): Promise<CheckedRemote> {
  return withGitErrors(() => checkRemote(address, remotePolicy(settings)));
}

/** Local paths cannot be mirrored (only http and https remotes). */
export function refuseLocalPath(address: string): void {
  if (address.startsWith("/") || /^file:/i.test(address)) {
    throw new InvalidArgumentError("Invalid URL: a mirror needs an http:// or https:// address.");
  }
}

/** A failure's text for `last_error`: one line per git line, bounded, without anything that looks like credentials. */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/(https?:\/\/)[^@/\s]*@/gi, "$1")
    .replace(/Authorization: \S+ \S+/gi, "Authorization: ***")
    .slice(0, 2000);
}
