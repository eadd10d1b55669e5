import { describe, expect, it } from "vitest";
import { isAddressLiteral, isLocalhostName } from "./remote-host.js";

describe("remote hosts", () => {
  it("tells address literals from names, and knows localhost names", () => {
    expect(isAddressLiteral("127.0.0.1")).toBe(true);
    expect(isAddressLiteral("[::1]")).toBe(true);
    expect(isAddressLiteral("[::ffff:7f00:1]")).toBe(true);
    expect(isAddressLiteral("127.1")).toBe(false);
    expect(isAddressLiteral("example.com")).toBe(false);
    for (const name of ["localhost", "LOCALHOST.", "a.localhost", "a.localhost."]) {
      expect(isLocalhostName(name)).toBe(true);
    }
    expect(isLocalhostName("localhost.example.com")).toBe(false);
    expect(isLocalhostName("notlocalhost")).toBe(false);
  });
});
