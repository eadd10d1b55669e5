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

/** A policy that allows only `allowed` and records every address it is asked about. */
function policy(...allowed: string[]) {
  const asked: string[] = [];
  return {
    asked,
    allows: (address: string) => {
      asked.push(address);
      return allowed.includes(address);
    },
  };
}

describe("checkRemote", () => {
  const resolve = dns({ "git.example.com": ["93.184.216.34"], "rebind.example.com": ["127.0.0.1"] });

  it.each([
    ["http://127.0.0.1:3000/o/r.git", ["127.0.0.1"]],
    ["http://2130706433:3000/o/r.git", ["127.0.0.1"]],
    ["http://0x7f000001:3000/o/r.git", ["127.0.0.1"]],
    ["http://127.1:3000/o/r.git", ["127.0.0.1"]],
    ["http://[::1]:3000/o/r.git", ["::1"]],
    ["http://[::ffff:127.0.0.1]:3000/o/r.git", ["::ffff:7f00:1"]],
    ["http://localhost:3000/o/r.git", ["127.0.0.1"]],
    ["http://localhost.:3000/o/r.git", ["127.0.0.1"]],
    ["http://repo.localhost/o/r.git", ["127.0.0.1"]],
    ["http://rebind.example.com/o/r.git", ["127.0.0.1"]],
  ])("asks the policy about the address %s reaches, and refuses it when refused", async (raw, asked) => {
    const refusing = policy();
    const refusal = checkRemote(raw, { allows: refusing.allows, resolve });
    await expect(refusal).rejects.toBeInstanceOf(GitInvalidArgumentError);
    await expect(refusal).rejects.toThrow(DISALLOWED_HOST_MESSAGE);
    expect(refusing.asked).toEqual(asked);
  });

  it("refuses a name when any of its addresses is refused, and pins an accepted one to its addresses", async () => {
    const resolve = dns({
      "mixed.example.com": ["93.184.216.34", "10.0.0.7"],
      "git.example.com": ["93.184.216.34"],
    });
    const publicOnly = policy("93.184.216.34");
    await expect(
      checkRemote("https://mixed.example.com/r.git", { allows: publicOnly.allows, resolve }),
    ).rejects.toThrow(DISALLOWED_HOST_MESSAGE);
    const ok = await checkRemote("https://GIT.example.com/o/r.git", { allows: publicOnly.allows, resolve });
    expect(CheckedRemote.is(ok)).toBe(true);
    expect(ok.url).toMatchObject({ host: "git.example.com", port: 443 });
    expect(ok.addresses).toEqual(["93.184.216.34"]);
  });

  it("accepts what the policy allows: literals unpinned, localhost pinned to both loopback addresses", async () => {
    const open = { allows: () => true, resolve };
    const literal = await checkRemote("http://2130706433:3000/o/r.git", open);
    expect(literal.url.href).toBe("http://127.0.0.1:3000/o/r.git");
    expect(literal.addresses).toEqual([]);
    expect((await checkRemote("http://localhost.:3000/o/r.git", open)).addresses).toEqual([
      "127.0.0.1",
      "::1",
    ]);
    expect((await checkRemote("http://rebind.example.com/o/r.git", open)).addresses).toEqual(["127.0.0.1"]);
    const v4Only = policy("127.0.0.1");
    await expect(checkRemote("http://localhost/", { allows: v4Only.allows, resolve })).rejects.toThrow(
      DISALLOWED_HOST_MESSAGE,
    );
  });

  it("answers a name that does not resolve like any unreachable source, keeping the detail as the cause", async () => {
    const failure = await checkRemote("http://nowhere.example.com/r.git", {
      allows: () => true,
      resolve,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GitMigrationError);
    expect((failure as Error).message).toBe(SOURCE_UNREADABLE_MESSAGE);
    expect(String((failure as Error).cause)).toContain("ENOTFOUND");
  });

  it("refuses an ambiguous URL before resolving anything", async () => {
    const resolve: HostResolver = () => {
      throw new Error("must not resolve");
    };
    await expect(
      checkRemote("http://1.2.3.4\\@127.0.0.1:3000/o/r.git", { allows: () => true, resolve }),
    ).rejects.toThrow("Invalid URL: backslashes are not allowed.");
    expect(CheckedRemote.is({ url: {}, addresses: [] })).toBe(false);
    const checked = await checkRemote("http://8.8.8.8/r.git", { allows: () => true, resolve });
    const forged = new CheckedRemote(checked.url, ["127.0.0.1"]);
    expect(CheckedRemote.is(forged)).toBe(false);
  });
});
