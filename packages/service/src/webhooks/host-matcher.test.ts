import { describe, expect, it } from "vitest";
import { HostMatcher } from "./host-matcher.js";

describe("ALLOWED_HOST_LIST as Forgejo's hostmatcher", () => {
  const allows = (list: string, host: string, address = host) => new HostMatcher(list).allows(host, address);

  it("external: global unicast addresses that are not private", () => {
    expect(allows("external", "example.com", "93.184.216.34")).toBe(true);
    expect(allows("external", "2606:2800:220:1::1")).toBe(true);
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:0:0",
      "::",
      "::7f00:1",
      "64:ff9b::7f00:1",
      "::ffff:a00:1",
      "::ffff:ac10:1",
      "::ffff:c0a8:101",
      "::ffff:a9fe:a9fe",
      "100.64.0.1",
      "2130706433",
      "0x7f.1",
    ])
      expect(allows("external", "h", a), a).toBe(false);
    expect(allows("external", "h", "::ffff:808:808")).toBe(true);
    expect(allows("external", "h", "64:ff9b::808:808")).toBe(true);
  });

  it("judges an address by the IPv4 address it carries, for keywords and CIDRs alike", () => {
    expect(allows("loopback", "h", "::ffff:7f00:1")).toBe(true);
    expect(allows("loopback", "h", "::ffff:0:0")).toBe(false);
    expect(allows("private", "h", "::ffff:a00:1")).toBe(true);
    expect(allows("private", "h", "::ffff:7f00:1")).toBe(false);
    expect(allows("10.0.0.0/8", "h", "::ffff:a00:1")).toBe(true);
    expect(allows("10.0.0.0/8", "h", "64:ff9b::a00:1")).toBe(true);
    expect(allows("::ffff:10.0.0.0/104", "h", "10.1.1.1")).toBe(true);
    expect(allows("::ffff:10.0.0.0/104", "h", "11.1.1.1")).toBe(false);
    expect(allows("64:ff9b::/96", "h", "64:ff9b::7f00:1")).toBe(false);
    expect(allows("2001:db8::/32", "h", "2001:db8::1")).toBe(true);
    expect(allows("169.254.169.254/32", "h", "::ffff:a9fe:a9fe")).toBe(true);
    // Not a CIDR for Go either: a host-name pattern, which an address does not match.
    expect(allows("010.0.0.0/8", "h", "8.0.0.1")).toBe(false);
    expect(allows("not an address", "h", "not an address")).toBe(false);
  });

  it("loopback, private, *, CIDRs and host globs", () => {
    expect(allows("loopback", "localhost", "127.0.0.1")).toBe(true);
    expect(allows("loopback", "localhost", "::1")).toBe(true);
    expect(allows("loopback", "h", "10.0.0.1")).toBe(false);
    expect(allows("private", "h", "10.0.0.1")).toBe(true);
    expect(allows("private", "h", "fd12::1")).toBe(true);
    expect(allows("private", "h", "127.0.0.1")).toBe(false);
    expect(allows("*", "h", "169.254.169.254")).toBe(true);
    expect(allows("10.0.0.0/8, 192.168.1.0/24", "h", "10.9.9.9")).toBe(true);
    expect(allows("10.0.0.0/8, 192.168.1.0/24", "h", "192.168.2.1")).toBe(false);
    expect(allows("*.example.com", "hooks.example.com", "10.0.0.1")).toBe(true);
    expect(allows("*.example.com", "example.com", "10.0.0.1")).toBe(false);
    expect(allows("external,loopback", "h", "127.0.0.1")).toBe(true);
    expect(allows("", "h", "93.184.216.34")).toBe(false);
  });
});
