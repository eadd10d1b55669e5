import { describe, expect, it } from "vitest";
import { GitInvalidArgumentError } from "../errors/git-error.js";
import { parseRemoteUrl } from "./remote-url.js";

describe("parseRemoteUrl", () => {
  it("canonicalizes the host the way both git and WHATWG read it", () => {
    expect(parseRemoteUrl("http://2130706433:3000/o/r.git")).toMatchObject({
      href: "http://127.0.0.1:3000/o/r.git",
      host: "127.0.0.1",
      port: 3000,
    });
    expect(parseRemoteUrl("http://0x7f000001/o/r.git").host).toBe("127.0.0.1");
    expect(parseRemoteUrl("http://127.1/").host).toBe("127.0.0.1");
    expect(parseRemoteUrl("http://0177.0.0.1/").host).toBe("127.0.0.1");
    expect(parseRemoteUrl("http://[::ffff:127.0.0.1]/").host).toBe("[::ffff:7f00:1]");
    expect(parseRemoteUrl("HTTPS://Git.Example.COM./o/r.git#frag")).toEqual({
      href: "https://git.example.com./o/r.git",
      protocol: "https:",
      host: "git.example.com.",
      port: 443,
    });
    expect(parseRemoteUrl("http://user:p%40ss@example.com/a/../r.git").href).toBe(
      "http://user:p%40ss@example.com/r.git",
    );
  });

  it.each([
    ["http://1.2.3.4\\@127.0.0.1:3000/o/r.git", "backslashes are not allowed"],
    ["http://example.com/o\\r.git", "backslashes are not allowed"],
    ["http://a@b@127.0.0.1/", "more than one '@'"],
    ['http://us"er@example.com/', "user information"],
    ["http://us[er@example.com/", "user information"],
    ["http://user%4@example.com/", "user information"],
    ["http://exa mple.com/", "whitespace"],
    [" http://example.com/", "whitespace"],
    ["http://example.com/\tx", "whitespace"],
    ["http://example.com/\n", "whitespace"],
    ["http://exämple.com/", "non-ASCII"],
    ["http://127%2e0.0.1/", "host"],
    ["http://[::1%25eth0]/", "host"],
    ["http:///example.com/", "host"],
    ["http:example.com/", "only http:// and https://"],
    ["ftp://example.com/r.git", "only http:// and https://"],
    ["git://example.com/r.git", "only http:// and https://"],
    ["file:///etc/passwd", "only http:// and https://"],
    ["http://example.com:/", "port"],
    ["http://example.com:65536/", "port"],
    ["http://example.com:0/", "port"],
    ["http://example.com/%zz", "'%'"],
    ["http://999999999999/", "cannot be parsed"],
  ])("refuses %j", (raw, reason) => {
    expect(() => parseRemoteUrl(raw)).toThrow(GitInvalidArgumentError);
    expect(() => parseRemoteUrl(raw)).toThrow(reason);
  });
});
