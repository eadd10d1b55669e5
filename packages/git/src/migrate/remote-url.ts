import { GitInvalidArgumentError } from "../errors/git-error.js";

/** A migration source URL that git (libcurl) and the WHATWG parser read the same way. */
export interface RemoteUrl {
  /** The canonical URL handed to git: WHATWG's serialization, numeric IPv4 hosts in dotted form, no fragment. */
  readonly href: string;
  readonly protocol: "http:" | "https:";
  /** The host as it appears in `href`: a lower-case name, dotted IPv4, or `[IPv6]`. */
  readonly host: string;
  /** The port git connects to (the scheme's default when the URL names none). */
  readonly port: number;
}

// scheme "://" [userinfo "@"] host [":" port] [path-abempty] [? query] [# fragment], where the
// authority ends at the first "/", "?" or "#" (backslashes are refused before this runs).
const SHAPE = /^(https?):\/\/([^/?#]*)(.*)$/i;
// RFC 3986 userinfo without the characters parsers disagree on: unreserved, pct-encoded, sub-delims, ":".
const USERINFO = /^[A-Za-z0-9\-._~%!$&'()*+,;=:]*$/;
const PCT = /%(?![0-9A-Fa-f]{2})/;
// A registered name in ASCII letters, digits, "-", "_" and "." (no percent-escapes: WHATWG decodes them, curl does not).
const REG_NAME = /^[A-Za-z0-9\-_.]+$/;
// An IPv6 literal without a zone identifier (WHATWG refuses zones, curl accepts them).
const IPV6_LITERAL = /^\[[0-9A-Fa-f:.]+\]$/;
const PORT = /^[0-9]{1,5}$/;

function invalid(reason: string): never {
  throw new GitInvalidArgumentError(`Invalid URL: ${reason}.`);
}

/**
 * Parses a migration source as git will use it, refusing every URL whose meaning depends on the
 * parser: only http(s), no whitespace, control or non-ASCII characters, no backslashes anywhere,
 * at most one "@" in the authority and a userinfo and host made only of characters git's libcurl
 * and WHATWG read alike. Throws invalid-argument ("Invalid URL: …").
 */
export function parseRemoteUrl(raw: string): RemoteUrl {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007f-\uffff]/.test(raw))
    invalid("whitespace, control and non-ASCII characters are not allowed");
  if (raw.includes("\\")) invalid("backslashes are not allowed");
  const shape = SHAPE.exec(raw);
  if (!shape) invalid("only http:// and https:// URLs can be migrated");
  const authority = shape[2] ?? "";
  const at = authority.split("@");
  if (at.length > 2) invalid("more than one '@' before the host is ambiguous");
  const hostPort = at.length === 2 ? (at[1] ?? "") : authority;
  if (at.length === 2 && (!USERINFO.test(at[0] ?? "") || PCT.test(at[0] ?? ""))) {
    invalid("the user information contains characters that are read differently by git and browsers");
  }
  const portAt = hostPort.startsWith("[") ? hostPort.indexOf("]:") + 1 : hostPort.lastIndexOf(":");
  const hostPart = portAt > 0 ? hostPort.slice(0, portAt) : hostPort;
  const portPart = portAt > 0 ? hostPort.slice(portAt + 1) : undefined;
  if (!REG_NAME.test(hostPart) && !IPV6_LITERAL.test(hostPart))
    invalid("the host is not a plain name or address");
  if (portPart !== undefined && (!PORT.test(portPart) || Number(portPart) < 1 || Number(portPart) > 65535)) {
    invalid("the port is not a number from 1 to 65535");
  }
  if (PCT.test(shape[3] ?? "")) invalid("a '%' is not followed by two hexadecimal digits");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    invalid("it cannot be parsed");
  }
  url.hash = "";
  const protocol = url.protocol === "https:" ? "https:" : "http:";
  return {
    href: url.href,
    protocol,
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === "https:" ? 443 : 80,
  };
}
