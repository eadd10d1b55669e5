import { compileGlob, type Glob } from "@kiln/git";
import ipaddr from "ipaddr.js";
import {
  type AddressClass,
  classifyAddress,
  destinationOf,
  type IpAddress,
  parseAddress,
} from "../outbound/address-class.js";

/**
 * Forgejo's modules/hostmatcher for `[webhook] ALLOWED_HOST_LIST`: comma-separated entries, each
 * a keyword (`loopback`, `private`, `external`, `*`), a CIDR, or a host-name glob (`*.example.com`,
 * matched as Go's filepath.Match on the lower-cased name). Keywords name the classes of the shared
 * address classifier, which judges an IPv6 address that carries an IPv4 one (mapped, compatible,
 * NAT64) as the IPv4 address it reaches; a CIDR is matched against that address too.
 */
export class HostMatcher {
  readonly #all: boolean;
  readonly #builtins: ReadonlySet<AddressClass>;
  readonly #nets: readonly [IpAddress, number][];
  readonly #patterns: readonly Glob[];

  constructor(readonly list: string) {
    const builtins = new Set<AddressClass>();
    const nets: [IpAddress, number][] = [];
    const patterns: Glob[] = [];
    let all = false;
    for (const raw of list.split(",")) {
      const entry = raw.trim().toLowerCase();
      if (entry === "") continue;
      if (entry === "*") all = true;
      else if (entry === "loopback" || entry === "private" || entry === "external") builtins.add(entry);
      else {
        const net = parseCidr(entry);
        if (net) nets.push(net);
        else {
          const glob = hostGlob(entry);
          if (glob) patterns.push(glob);
        }
      }
    }
    this.#all = all;
    this.#builtins = builtins;
    this.#nets = nets;
    this.#patterns = patterns;
  }

  /** Whether a delivery may connect to `address` (resolved from `host`): Forgejo's MatchHostOrIP. */
  allows(host: string, address: string): boolean {
    const name = host.toLowerCase().replace(/^\[|\]$/g, "");
    if (this.#patterns.some((p) => p.matches(name))) return true;
    return this.#allowsAddress(address);
  }

  #allowsAddress(raw: string): boolean {
    if (this.#all) return true;
    const parsed = parseAddress(raw);
    if (!parsed) return false;
    if (this.#builtins.has(classifyAddress(parsed))) return true;
    const target = destinationOf(parsed);
    return this.#nets.some(([net, bits]) => net.kind() === target.kind() && target.match(net, bits));
  }
}

/**
 * A CIDR as Go's net.ParseCIDR reads one (IPv4 only in four-part decimal); one written in the
 * IPv4-mapped form is the IPv4 network it names. Undefined when `entry` is no CIDR.
 */
function parseCidr(entry: string): [IpAddress, number] | undefined {
  const slash = entry.indexOf("/");
  if (slash < 0) return undefined;
  const address = entry.slice(0, slash);
  if (!address.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(address)) return undefined;
  if (!/^\d{1,3}$/.test(entry.slice(slash + 1))) return undefined;
  let net: [IpAddress, number];
  try {
    net = ipaddr.parseCIDR(entry);
  } catch {
    return undefined;
  }
  const [ip, bits] = net;
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return net;
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
