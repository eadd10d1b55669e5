import { existsSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { askUnverified, openVerifyChannel, type PushedCommit } from "./verify-channel.js";

describe("the push verification channel", () => {
  it("carries the commits to the server's check and its answer back", async () => {
    const seen: PushedCommit[][] = [];
    const channel = await openVerifyChannel(async (commits) => {
      seen.push([...commits]);
      return commits.find((c) => c.object.toString() !== "good")?.sha;
    });
    try {
      const good = { sha: "a".repeat(40), object: Buffer.from("good") };
      const bad = { sha: "b".repeat(40), object: Buffer.from("bad\0bytes") };
      expect(await askUnverified(channel.path, [good])).toBeUndefined();
      expect(await askUnverified(channel.path, [good, bad])).toBe(bad.sha);
      expect(seen[1]?.[1]?.object.equals(bad.object)).toBe(true);
    } finally {
      channel.close();
    }
  });

  it("answers a check that throws as unverified, never as verified", async () => {
    const channel = await openVerifyChannel(async () => {
      throw new Error("database gone");
    });
    try {
      expect(await askUnverified(channel.path, [{ sha: "c".repeat(40), object: Buffer.from("x") }])).toBe(
        "c".repeat(40),
      );
    } finally {
      channel.close();
    }
  });

  it("keeps its socket in a private directory of its own, removed on close", async () => {
    const channel = await openVerifyChannel(async () => undefined);
    const dir = dirname(channel.path);
    expect(basename(dir)).toMatch(/^kiln-verify-/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    channel.close();
    expect(existsSync(dir)).toBe(false);
  });
});
