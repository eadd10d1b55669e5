import { describe, expect, it } from "vitest";
import { GitInvalidArgumentError, GitMigrationError } from "../errors/git-error.js";
import {
  CheckedRemote,
  checkRemote,
  DISALLOWED_HOST_MESSAGE,
  type HostResolver,
  SOURCE_UNREADABLE_MESSAGE,
} from "./checked-remote.js";

const dns =
  (answers: Record<string, readonly string[]>): HostResolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found;
  };

describe("checkRemote", () => {
  const strict = { allowLocalNetworks: false, resolve: dns({ "git.example.com": ["93.184.216.34"] }) };

  it.each([
    "http://127.0.0.1:3000/o/r.git",
    "http://2130706433:3000/o/r.git",
    "http://0x7f000001:3000/o/r.git",
    "http://127.1:3000/o/r.git",
    "http://[::1]:3000/o/r.git",
    "http://[::ffff:127.0.0.1]:3000/o/r.git",
    "http://localhost:3000/o/r.git",
    "http://localhost.:3000/o/r.git",
    "http://repo.localhost/o/r.git",
    "http://10.0.0.1/o/r.git",
    "http://100.64.0.1/o/r.git",
    "http://[fd00::1]/o/r.git",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0:3000/o/r.git",
  ])("refuses %s as a disallowed host by default", async (raw) => {
    const refusal = checkRemote(raw, strict);
    await expect(refusal).rejects.toBeInstanceOf(GitInvalidArgumentError);
    await expect(refusal).rejects.toThrow(DISALLOWED_HOST_MESSAGE);
  });

  it("refuses a name when any of its addresses is local, and accepts public ones pinned to their addresses", async () => {
    const resolve = dns({
      "mixed.example.com": ["93.184.216.34", "10.0.0.7"],
      "git.example.com": ["93.184.216.34"],
    });
    await expect(
      checkRemote("https://mixed.example.com/r.git", { allowLocalNetworks: false, resolve }),
    ).rejects.toThrow(DISALLOWED_HOST_MESSAGE);
    const ok = await checkRemote("https://GIT.example.com/o/r.git", { allowLocalNetworks: false, resolve });
    expect(CheckedRemote.is(ok)).toBe(true);
    expect(ok.url).toMatchObject({ host: "git.example.com", port: 443 });
    expect(ok.addresses).toEqual(["93.184.216.34"]);
  });

  it("with local networks allowed, accepts loopback and private but never link-local or unspecified", async () => {
    const open = { allowLocalNetworks: true, resolve: dns({ "rebind.example.com": ["127.0.0.1"] }) };
    expect((await checkRemote("http://2130706433:3000/o/r.git", open)).url.href).toBe(
      "http://127.0.0.1:3000/o/r.git",
    );
    expect((await checkRemote("http://localhost.:3000/o/r.git", open)).addresses).toEqual([
      "127.0.0.1",
      "::1",
    ]);
    expect((await checkRemote("http://rebind.example.com/o/r.git", open)).addresses).toEqual(["127.0.0.1"]);
    for (const raw of ["http://169.254.169.254/", "http://[fe80::1]/", "http://0.0.0.0/", "http://[::]/"]) {
      await expect(checkRemote(raw, open)).rejects.toThrow(DISALLOWED_HOST_MESSAGE);
    }
  });

  it("answers a name that does not resolve like any unreachable source, keeping the detail as the cause", async () => {
    const failure = await checkRemote("http://nowhere.example.com/r.git", strict).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GitMigrationError);
    expect((failure as Error).message).toBe(SOURCE_UNREADABLE_MESSAGE);
    expect(String((failure as Error).cause)).toContain("ENOTFOUND");
  });

  it("refuses an ambiguous URL before resolving anything", async () => {
    const resolve: HostResolver = () => {
      throw new Error("must not resolve");
    };
    await expect(
      checkRemote("http://1.2.3.4\\@127.0.0.1:3000/o/r.git", { allowLocalNetworks: true, resolve }),
    ).rejects.toThrow("Invalid URL: backslashes are not allowed.");
    expect(CheckedRemote.is({ url: {}, addresses: [] })).toBe(false);
    const forged = new CheckedRemote((await checkRemote("http://8.8.8.8/r.git", strict)).url, ["127.0.0.1"]);
    expect(CheckedRemote.is(forged)).toBe(false);
  });
});
