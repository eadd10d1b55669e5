import ipaddr from "ipaddr.js";

/**
 * Where an address lies, as Forgejo's modules/hostmatcher sees it: `external` is a public unicast
 * address (always allowed), `local` is loopback or "private" (RFC 1918, fc00::/7 unique-local,
 * 100.64.0.0/10 CGNAT: allowed only with `[migrations] ALLOW_LOCALNETWORKS`), and `forbidden` is
 * everything else (unspecified, link-local, multicast, broadcast, reserved and documentation
 * ranges, NAT64/6to4/Teredo embeddings): never allowed.
 */
export type AddressClass = "external" | "local" | "forbidden";

const LOCAL_RANGES = new Set(["loopback", "private", "uniqueLocal", "carrierGradeNat"]);

/**
 * Classifies an IP address; an IPv4-mapped (or IPv4-compatible) IPv6 address is classified as the
 * IPv4 address it carries, since that is where the kernel sends it. Not an address: `forbidden`.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return "forbidden";
  const range = ipaddr.process(bare).range();
  if (range === "unicast") return "external";
  return LOCAL_RANGES.has(range) ? "local" : "forbidden";
}

/** Whether an address literal (with or without IPv6 brackets) is an IP address rather than a name. */
export function isAddressLiteral(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(bare));
}

/** `localhost` and its subdomains, with or without a trailing dot: loopback by definition (RFC 6761), never looked up. */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}
