import ipaddr from "ipaddr.js";

/** An IP address parsed by ipaddr.js. */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Where a connection to an address lands, in the words of `[webhook] ALLOWED_HOST_LIST`:
 * `loopback` (127.0.0.0/8, ::1), `private` (RFC 1918, 100.64.0.0/10 carrier-grade NAT, fc00::/7
 * unique-local, fec0::/10 site-local), `external` (public unicast) and `forbidden`: everything
 * else (unspecified, link-local such as cloud metadata at 169.254.169.254, multicast, broadcast,
 * reserved and documentation ranges, 6to4 and Teredo tunnels, NAT64 prefixes whose embedding is
 * not known), which no keyword allows.
 */
export type AddressClass = "loopback" | "private" | "external" | "forbidden";

const PRIVATE_RANGES: ReadonlySet<string> = new Set([
  "private",
  "carrierGradeNat",
  "uniqueLocal",
  "deprecatedSiteLocal",
]);

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

/**
 * Parses an IP address as the URL and socket layers may spell it: IPv6 with or without brackets,
 * IPv4 in dotted, decimal, octal or hexadecimal form (`2130706433`, `0x7f.1`, `0177.0.0.1`).
 * Undefined when `text` is no address (a host name).
 */
export function parseAddress(text: string): IpAddress | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  // A zone (`fe80::1%eth0`) names an interface, not a different address.
  const unzoned = bare.includes(":") ? bare.replace(/%.*$/, "") : bare;
  return ipaddr.isValid(unzoned) ? ipaddr.parse(unzoned) : undefined;
}

/**
 * The address a connection to `ip` actually reaches: the IPv4 address carried in an IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96) or well-known NAT64
 * (64:ff9b::/96) IPv6 address, since the kernel or the NAT64 gateway delivers to it; `ip` itself
 * otherwise.
 */
export function destinationOf(ip: IpAddress): IpAddress {
  if (ip.kind() === "ipv4") return ip;
  const v6 = ip as ipaddr.IPv6;
  const p = v6.parts;
  const carried = () =>
    new ipaddr.IPv4([(p[6] ?? 0) >> 8, (p[6] ?? 0) & 0xff, (p[7] ?? 0) >> 8, (p[7] ?? 0) & 0xff]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const range = v6.range();
  if (range === "unspecified" || range === "loopback") return v6;
  if (zeros(0, 5) && (p[5] === 0 || p[5] === 0xffff)) return carried();
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return carried();
  if (v6.match(NAT64_WELL_KNOWN)) return carried();
  return v6;
}

/**
 * Classifies an address (a string in any form {@link parseAddress} reads, or a parsed one) by
 * where a connection to it lands ({@link destinationOf}); not an address: `forbidden`. The one
 * classifier of every outbound connection: webhook deliveries, migrations and mirrors.
 */
export function classifyAddress(address: string | IpAddress): AddressClass {
  const parsed = typeof address === "string" ? parseAddress(address) : address;
  if (!parsed) return "forbidden";
  const range = destinationOf(parsed).range();
  if (range === "unicast") return "external";
  if (range === "loopback") return "loopback";
  return PRIVATE_RANGES.has(range) ? "private" : "forbidden";
}

/**
 * Whether a migration or a mirror may reach `address`: a public address, or with
 * `[migrations] ALLOW_LOCALNETWORKS` a loopback or private one too (never a forbidden one).
 */
export function remoteAddressAllowed(address: string, allowLocalNetworks: boolean): boolean {
  const where = classifyAddress(address);
  return where === "external" || (allowLocalNetworks && (where === "loopback" || where === "private"));
}
