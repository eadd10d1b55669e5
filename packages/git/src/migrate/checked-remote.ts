import { lookup } from "node:dns/promises";
import { GitInvalidArgumentError, GitMigrationError } from "../errors/git-error.js";
import { isAddressLiteral, isLocalhostName } from "./remote-host.js";
import { parseRemoteUrl, type RemoteUrl } from "./remote-url.js";

/** Forgejo's answer for a source on a host the site does not allow. */
export const DISALLOWED_HOST_MESSAGE = "You can not import from disallowed hosts.";

/**
 * The one answer for every failure to read a source (DNS, refused or timed-out connection, TLS,
 * HTTP status, redirect, not a git repository), so the migration endpoint cannot be used to scan
 * ports or hosts; the detail goes to the server log through the error's `cause`.
 */
export const SOURCE_UNREADABLE_MESSAGE = "Migration failed: the remote repository could not be read.";

/** Resolves a host name to every address getaddrinfo gives for it (what libcurl would use). */
export type HostResolver = (host: string) => Promise<readonly string[]>;

/** Options of {@link checkRemote}. */
export interface CheckRemoteOptions {
  /**
   * Whether git may connect to an address (an IP address without brackets): the caller's policy,
   * which judges every address the host is or resolves to.
   */
  readonly allows: (address: string) => boolean;
  /** The resolver (default: the system's, through `dns.lookup`); tests may pass their own. */
  readonly resolve?: HostResolver;
}

const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The values {@link checkRemote} made: only these open a network clone. */
const issued = new WeakSet<object>();

/**
 * A migration source that passed {@link checkRemote}: its canonical URL and the addresses its host
 * resolved to when it was checked. Only a value made by `checkRemote` opens a network clone, and
 * the clone connects to exactly these addresses.
 */
export class CheckedRemote {
  constructor(
    readonly url: RemoteUrl,
    /** The checked addresses git is pinned to; empty when the host is an address literal (no lookup). */
    readonly addresses: readonly string[],
  ) {}

  /** Whether this value came from {@link checkRemote} (one built otherwise, or a look-alike, did not). */
  static is(value: unknown): value is CheckedRemote {
    return typeof value === "object" && value !== null && issued.has(value);
  }
}

function checked(url: RemoteUrl, addresses: readonly string[]): CheckedRemote {
  const remote = new CheckedRemote(Object.freeze({ ...url }), Object.freeze([...addresses]));
  issued.add(remote);
  return remote;
}

/**
 * Parses a migration source as git will read it and resolves its host once: refuses (invalid
 * argument) malformed or ambiguous URLs and hosts whose addresses `options.allows` refuses — any
 * one refused address refuses the host; a host that does not resolve fails like an unreachable one.
 */
export async function checkRemote(raw: string, options: CheckRemoteOptions): Promise<CheckedRemote> {
  const url = parseRemoteUrl(raw);
  const allowed = (address: string) => options.allows(address.replace(/^\[(.*)\]$/, "$1"));
  if (isAddressLiteral(url.host)) {
    if (!allowed(url.host)) throw new GitInvalidArgumentError(DISALLOWED_HOST_MESSAGE);
    return checked(url, []);
  }
  if (isLocalhostName(url.host)) {
    const loopback = ["127.0.0.1", "::1"];
    if (!loopback.every(allowed)) throw new GitInvalidArgumentError(DISALLOWED_HOST_MESSAGE);
    return checked(url, loopback);
  }
  let addresses: readonly string[];
  try {
    addresses = await (options.resolve ?? systemResolver)(url.host);
  } catch (error) {
    throw new GitMigrationError(SOURCE_UNREADABLE_MESSAGE, { cause: error });
  }
  if (addresses.length === 0) {
    throw new GitMigrationError(SOURCE_UNREADABLE_MESSAGE, { cause: new Error(`${url.host}: no address`) });
  }
  if (!addresses.every(allowed)) throw new GitInvalidArgumentError(DISALLOWED_HOST_MESSAGE);
  return checked(url, addresses);
}
