import { describe, expect, it } from "vitest";
import { classifyAddress, isAddressLiteral, isLocalhostName } from "./address-policy.js";

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "external"],
    ["2606:4700::1111", "external"],
    ["127.0.0.1", "local"],
    ["127.255.0.9", "local"],
    ["::1", "local"],
    ["[::1]", "local"],
    ["10.1.2.3", "local"],
    ["172.16.0.1", "local"],
    ["192.168.1.1", "local"],
    ["100.64.0.1", "local"],
    ["fc00::1", "local"],
    ["fd12:3456::1", "local"],
    ["::ffff:127.0.0.1", "local"],
    ["::ffff:7f00:1", "local"],
    ["::ffff:10.0.0.1", "local"],
    ["::ffff:8.8.8.8", "external"],
    ["0.0.0.0", "forbidden"],
    ["::", "forbidden"],
    ["169.254.169.254", "forbidden"],
    ["fe80::1", "forbidden"],
    ["::ffff:169.254.169.254", "forbidden"],
    ["224.0.0.1", "forbidden"],
    ["255.255.255.255", "forbidden"],
    ["192.0.2.1", "forbidden"],
    ["64:ff9b::7f00:1", "forbidden"],
    ["2002:7f00:1::", "forbidden"],
    ["not an address", "forbidden"],
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it("tells address literals from names, and knows localhost names", () => {
    expect(isAddressLiteral("127.0.0.1")).toBe(true);
    expect(isAddressLiteral("[::1]")).toBe(true);
    expect(isAddressLiteral("127.1")).toBe(false);
    expect(isAddressLiteral("example.com")).toBe(false);
    for (const name of ["localhost", "LOCALHOST.", "a.localhost", "a.localhost."]) {
      expect(isLocalhostName(name)).toBe(true);
    }
    expect(isLocalhostName("localhost.example.com")).toBe(false);
    expect(isLocalhostName("notlocalhost")).toBe(false);
  });
});
