import { describe, expect, it } from "vitest";
import { classifyGitRequest, gitProtocolOf } from "./git-request.js";
import { FLUSH_PKT, pktLine } from "./pkt-line.js";

const query = (text: string) => new URLSearchParams(text);

describe("classifyGitRequest", () => {
  it("recognises advertisements and RPCs with the access they need", () => {
    expect(classifyGitRequest("GET", "info/refs", query("service=git-upload-pack"))).toEqual({
      kind: "advertise",
      service: "git-upload-pack",
      access: "read",
    });
    expect(classifyGitRequest("GET", "/info/refs", query("service=git-receive-pack"))?.access).toBe("write");
    expect(classifyGitRequest("POST", "git-receive-pack", query(""))).toEqual({
      kind: "rpc",
      service: "git-receive-pack",
      access: "write",
    });
  });

  it("refuses the dumb protocol, unknown services and wrong methods", () => {
    expect(classifyGitRequest("GET", "info/refs", query(""))).toBeUndefined();
    expect(classifyGitRequest("GET", "info/refs", query("service=git-upload-archive"))).toBeUndefined();
    expect(classifyGitRequest("GET", "git-upload-pack", query(""))).toBeUndefined();
    expect(classifyGitRequest("POST", "HEAD", query(""))).toBeUndefined();
  });
});

describe("gitProtocolOf", () => {
  it("passes well-formed values and drops anything else", () => {
    expect(gitProtocolOf(new Headers({ "git-protocol": "version=2" }))).toBe("version=2");
    expect(gitProtocolOf(new Headers({ "git-protocol": "version=2:object-format=sha1" }))).toBe(
      "version=2:object-format=sha1",
    );
    expect(gitProtocolOf(new Headers({ "git-protocol": "version=2; rm -rf" }))).toBeUndefined();
    expect(gitProtocolOf(new Headers())).toBeUndefined();
  });
});

describe("pktLine", () => {
  it("prefixes the payload with its length in four hex digits", () => {
    expect(Buffer.from(pktLine("# service=git-upload-pack\n")).toString()).toBe(
      "001e# service=git-upload-pack\n",
    );
    expect(Buffer.from(FLUSH_PKT).toString()).toBe("0000");
  });
});
