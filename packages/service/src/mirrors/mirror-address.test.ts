import { defaultSettings } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { describeFailure, openCredentials, sealCredentials, splitAddress } from "./mirror-address.js";

describe("mirror addresses", () => {
  it("keeps the address without credentials, taking them from the URL unless given apart", () => {
    expect(splitAddress("https://u:p%40ss@git.example.com/o/r.git")).toEqual({
      address: "https://git.example.com/o/r.git",
      auth: { username: "u", password: "p@ss" },
    });
    expect(splitAddress(" https://u:p@git.example.com/o/r.git ", { username: "v", password: "q" })).toEqual({
      address: "https://git.example.com/o/r.git",
      auth: { username: "v", password: "q" },
    });
    expect(splitAddress("https://git.example.com/o/r.git", { username: "", password: "" })).toEqual({
      address: "https://git.example.com/o/r.git",
    });
    expect(() => splitAddress("git://git.example.com/r.git")).toThrow("Invalid URL");
  });

  it("seals credentials with the secret key, and reads nothing back under another key", () => {
    const settings = defaultSettings("/srv/kiln", { security: { secretKey: "one" } });
    const sealed = sealCredentials(settings, { username: "u", password: "secret" });
    expect(sealed).not.toContain("secret");
    expect(openCredentials(settings, sealed)).toEqual({ username: "u", password: "secret" });
    expect(
      openCredentials(defaultSettings("/srv/kiln", { security: { secretKey: "two" } }), sealed),
    ).toBeUndefined();
    expect(sealCredentials(settings, undefined)).toBe("");
    expect(openCredentials(settings, "")).toBeUndefined();
  });

  it("keeps credentials out of a failure's text", () => {
    expect(describeFailure(new Error("fatal: unable to access 'https://u:p@h/r.git/': 403"))).toBe(
      "fatal: unable to access 'https://h/r.git/': 403",
    );
    expect(describeFailure(new Error("header Authorization: Basic dTpw"))).toBe("header Authorization: ***");
  });
});
