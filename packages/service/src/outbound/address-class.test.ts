import { describe, expect, it } from "vitest";
import { classifyAddress, destinationOf, parseAddress, remoteAddressAllowed } from "./address-class.js";

describe("classifyAddress", () => {
  it.each([
    // Public unicast.
    ["8.8.8.8", "external"],
    ["93.184.216.34", "external"],
    ["2606:4700::1111", "external"],
    ["[2606:4700::1111]", "external"],
    ["::ffff:8.8.8.8", "external"],
    ["::ffff:808:808", "external"],
    ["64:ff9b::8.8.8.8", "external"],
    // Loopback, in every spelling.
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["2130706433", "loopback"],
    ["0x7f000001", "loopback"],
    ["0x7f.1", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["017700000001", "loopback"],
    ["127.1", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["[::ffff:127.0.0.1]", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["0:0:0:0:0:ffff:7f00:1", "loopback"],
    ["::ffff:0:7f00:1", "loopback"],
    ["::127.0.0.1", "loopback"],
    ["::7f00:1", "loopback"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::127.0.0.1", "loopback"],
    // Private networks, plain and carried in IPv6.
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fec0::1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:a00:1", "private"],
    ["::ffff:172.16.0.1", "private"],
    ["::ffff:192.168.1.1", "private"],
    ["::10.0.0.1", "private"],
    ["64:ff9b::10.0.0.1", "private"],
    // Never reachable through a keyword.
    ["0.0.0.0", "forbidden"],
    ["0", "forbidden"],
    ["0.1.2.3", "forbidden"],
    ["::", "forbidden"],
    ["[::]", "forbidden"],
    ["::ffff:0.0.0.0", "forbidden"],
    ["::ffff:0:0", "forbidden"],
    ["::2", "forbidden"],
    ["169.254.169.254", "forbidden"],
    ["::ffff:169.254.169.254", "forbidden"],
    ["::ffff:a9fe:a9fe", "forbidden"],
    ["64:ff9b::169.254.169.254", "forbidden"],
    ["fe80::1", "forbidden"],
    ["fe80::1%eth0", "forbidden"],
    ["224.0.0.1", "forbidden"],
    ["ff02::1", "forbidden"],
    ["255.255.255.255", "forbidden"],
    ["192.0.2.1", "forbidden"],
    ["240.0.0.1", "forbidden"],
    ["2001:db8::1", "forbidden"],
    ["2002:7f00:1::", "forbidden"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "forbidden"],
    ["64:ff9b:1::7f00:1", "forbidden"],
    ["not an address", "forbidden"],
    ["example.com", "forbidden"],
    ["", "forbidden"],
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe("destinationOf", () => {
  it("unwraps the IPv4 address an IPv6 address carries, and leaves the rest", () => {
    const to = (a: string) => destinationOf(parseAddress(a) ?? (undefined as never)).toString();
    expect(to("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(to("::ffff:0:a00:1")).toBe("10.0.0.1");
    expect(to("::a9fe:a9fe")).toBe("169.254.169.254");
    expect(to("64:ff9b::c0a8:101")).toBe("192.168.1.1");
    expect(to("::1")).toBe("::1");
    expect(to("::")).toBe("::");
    expect(to("2606:4700::1111")).toBe("2606:4700::1111");
    expect(to("127.1")).toBe("127.0.0.1");
  });

  it("parses addresses only, never host names", () => {
    expect(parseAddress("localhost")).toBeUndefined();
    expect(parseAddress("git.example.com")).toBeUndefined();
    expect(parseAddress("[::1")).toBeUndefined();
  });
});

describe("remoteAddressAllowed", () => {
  it("allows public addresses, local ones only with ALLOW_LOCALNETWORKS, forbidden ones never", () => {
    for (const open of [false, true]) {
      expect(remoteAddressAllowed("93.184.216.34", open)).toBe(true);
      for (const a of [
        "169.254.169.254",
        "::ffff:169.254.169.254",
        "0.0.0.0",
        "::",
        "::ffff:0:0",
        "fe80::1",
      ]) {
        expect(remoteAddressAllowed(a, open), a).toBe(false);
      }
      for (const a of ["127.0.0.1", "::ffff:7f00:1", "::1", "10.0.0.1", "::ffff:c0a8:101", "fd00::1"]) {
        expect(remoteAddressAllowed(a, open), a).toBe(open);
      }
    }
  });
});
