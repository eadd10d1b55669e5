import { BlockList, isIP } from "node:net";
import { compileGlob, type Glob } from "@kiln/git";

/**
 * Forgejo's modules/hostmatcher for `[webhook] ALLOWED_HOST_LIST`: comma-separated entries, each
 * a keyword (`loopback`, `private`, `external`, `*`), a CIDR, or a host-name glob (`*.example.com`,
 * matched as Go's filepath.Match on the lower-cased name). Keywords follow Go's net.IP:
 * `external` is a global unicast address that is not private; `private` is RFC 1918 and
 * fc00::/7; `loopback` is 127.0.0.0/8 and ::1.
 */
export class HostMatcher {
  readonly #all: boolean;
  readonly #builtins: ReadonlySet<string>;
  readonly #nets = new BlockList();
  readonly #patterns: readonly Glob[];

  constructor(readonly list: string) {
    const builtins = new Set<string>();
    const patterns: Glob[] = [];
    let all = false;
    for (const raw of list.split(",")) {
      const entry = raw.trim().toLowerCase();
      if (entry === "") continue;
      if (entry === "*") all = true;
      else if (entry === "loopback" || entry === "private" || entry === "external") builtins.add(entry);
      else if (!this.#addCidr(entry)) {
        const glob = hostGlob(entry);
        if (glob) patterns.push(glob);
      }
    }
    this.#all = all;
    this.#builtins = builtins;
    this.#patterns = patterns;
  }

  #addCidr(entry: string): boolean {
    const slash = entry.indexOf("/");
    if (slash < 0) return false;
    const address = entry.slice(0, slash);
    const prefix = Number(entry.slice(slash + 1));
    const family = isIP(address);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128))
      return false;
    this.#nets.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
    return true;
  }

  /** Whether a delivery may connect to `address` (resolved from `host`): Forgejo's MatchHostOrIP. */
  allows(host: string, address: string): boolean {
    const name = host.toLowerCase().replace(/^\[|\]$/g, "");
    if (this.#patterns.some((p) => p.matches(name))) return true;
    return this.#allowsAddress(address);
  }

  #allowsAddress(raw: string): boolean {
    if (this.#all) return true;
    const address = unmapped(raw);
    const family = isIP(address);
    if (family === 0) return false;
    const type = family === 4 ? "ipv4" : "ipv6";
    const kind = classify(address, type);
    if (this.#builtins.has("external") && kind === "external") return true;
    if (this.#builtins.has("private") && kind === "private") return true;
    if (this.#builtins.has("loopback") && kind === "loopback") return true;
    return this.#nets.check(address, type);
  }
}

/** An IPv4-mapped IPv6 address is judged as the IPv4 address it carries (as Go's To4 does). */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

const ranges = (list: readonly [string, number][], type: "ipv4" | "ipv6") => {
  const b = new BlockList();
  for (const [a, p] of list) b.addSubnet(a, p, type);
  return b;
};
const LOOPBACK4 = ranges([["127.0.0.0", 8]], "ipv4");
const PRIVATE4 = ranges(
  [
    ["10.0.0.0", 8],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
  ],
  "ipv4",
);
/** Not global unicast (Go): unspecified, link-local, multicast, broadcast. */
const NOT_GLOBAL4 = ranges(
  [
    ["0.0.0.0", 32],
    ["169.254.0.0", 16],
    ["224.0.0.0", 4],
    ["255.255.255.255", 32],
  ],
  "ipv4",
);
const PRIVATE6 = ranges([["fc00::", 7]], "ipv6");
const NOT_GLOBAL6 = ranges(
  [
    ["::", 128],
    ["fe80::", 10],
    ["ff00::", 8],
  ],
  "ipv6",
);

function classify(address: string, type: "ipv4" | "ipv6"): "loopback" | "private" | "external" | "other" {
  if (type === "ipv4") {
    if (LOOPBACK4.check(address, type)) return "loopback";
    if (PRIVATE4.check(address, type)) return "private";
    return NOT_GLOBAL4.check(address, type) ? "other" : "external";
  }
  if (address === "::1") return "loopback";
  if (PRIVATE6.check(address, type)) return "private";
  return NOT_GLOBAL6.check(address, type) ? "other" : "external";
}

/**
 * Go's filepath.Match for a host name (`*` any run without `/`, `?` one character, `[…]` a class,
 * `[^…]` or `[!…]` negated), by Kiln's linear glob matcher; undefined for a pattern that cannot be
 * read, which matches nothing (Go's ErrBadPattern).
 */
function hostGlob(pattern: string): Glob | undefined {
  try {
    return compileGlob(pattern.replaceAll("[^", "[!"), { separators: "/" });
  } catch {
    return undefined;
  }
}
