import ipaddr from "ipaddr.js";

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
