import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookScripts } from "../disk/hook-scripts.js";
import { type HookRequest, openHookChannel, PUSH_HOOK_ENV, spareChannelDirs } from "./hook-channel.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

/** Runs the installed pre-receive script as git would: ref update lines on stdin, quarantine in the environment. */
function runHook(
  script: string,
  env: Record<string, string>,
  stdin: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", [script], { env: { PATH: process.env.PATH, ...env } });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.end(stdin);
  });
}

/** How many pipes this process holds open (the channel's FIFOs count as pipes). */
function openPipes(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "PipeWrap").length;
}

describe("the pre-receive hook and its channel to the server", () => {
  let dir: string;
  let script: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "kiln-hook-test-"));
    script = join(dir, "pre-receive");
    await writeFile(script, hookScripts()["pre-receive"] ?? "", { mode: 0o755 });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("is plain sh that starts no interpreter", () => {
    const content = hookScripts()["pre-receive"] ?? "";
    expect(content.startsWith("#!/bin/sh\n")).toBe(true);
    expect(content).not.toMatch(/node|\.js\b/);
  });

  it("lets a push through untouched when the server asked for nothing", async () => {
    expect(await runHook(script, {}, `${A} ${B} refs/heads/main\n`)).toEqual({ code: 0, stderr: "" });
  });

  it("hands the server the quarantine and the updates, and accepts on ok", async () => {
    const seen: HookRequest[] = [];
    const channel = await openHookChannel(async (request) => {
      seen.push(request);
      return [];
    });
    try {
      const result = await runHook(
        script,
        {
          [PUSH_HOOK_ENV]: channel.dir,
          GIT_OBJECT_DIRECTORY: "/repo.git/objects/tmp_objdir-incoming-x",
          GIT_ALTERNATE_OBJECT_DIRECTORIES: "/repo.git/objects",
          GIT_QUARANTINE_PATH: "/repo.git/objects/tmp_objdir-incoming-x",
        },
        `${A} ${B} refs/heads/main\n${C} ${"0".repeat(40)} refs/tags/v1\n`,
      );
      expect(result).toEqual({ code: 0, stderr: "" });
    } finally {
      await channel.close();
    }
    expect(seen).toEqual([
      {
        objectEnv: {
          GIT_OBJECT_DIRECTORY: "/repo.git/objects/tmp_objdir-incoming-x",
          GIT_ALTERNATE_OBJECT_DIRECTORIES: "/repo.git/objects",
          GIT_QUARANTINE_PATH: "/repo.git/objects/tmp_objdir-incoming-x",
        },
        updates: [
          { oldSha: A, newSha: B, ref: "refs/heads/main" },
          { oldSha: C, newSha: "0".repeat(40), ref: "refs/tags/v1" },
        ],
      },
    ]);
    expect(existsSync(channel.dir)).toBe(false);
  });

  it("prints each refusal for git to show and exits non-zero", async () => {
    const channel = await openHookChannel(async () => [
      "branch main is protected from force push",
      "Tag v1 is protected",
    ]);
    try {
      const result = await runHook(script, { [PUSH_HOOK_ENV]: channel.dir }, `${A} ${B} refs/heads/main\n`);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe("branch main is protected from force push\nTag v1 is protected\n");
    } finally {
      await channel.close();
    }
  });

  it("refuses when judging the push fails", async () => {
    const channel = await openHookChannel(async () => {
      throw new Error("database is gone");
    });
    try {
      const result = await runHook(script, { [PUSH_HOOK_ENV]: channel.dir }, `${A} ${B} refs/heads/main\n`);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "push refused: internal error in pre-receive hook: Error: database is gone",
      );
    } finally {
      await channel.close();
    }
  });

  it("leaves no directory and no open pipe behind when git never runs the hook", async () => {
    const before = openPipes();
    const channel = await openHookChannel(async () => []);
    expect(existsSync(join(channel.dir, "request"))).toBe(true);
    await channel.close();
    expect(existsSync(channel.dir)).toBe(false);
    expect(openPipes()).toBe(before);
  });

  it("gives each channel a directory of its own, and skips a spare whose FIFOs were removed", async () => {
    const first = await openHookChannel(async () => []);
    const second = await openHookChannel(async () => []);
    expect(second.dir).not.toBe(first.dir);
    await Promise.all([first.close(), second.close()]);
    // A temporary-files cleaner removed the FIFOs of every directory made ahead.
    for (const spare of spareChannelDirs()) await rm(join(spare, "request"));
    const seen: HookRequest[] = [];
    const channel = await openHookChannel(async (request) => {
      seen.push(request);
      return [];
    });
    try {
      expect(statSync(join(channel.dir, "request")).isFIFO()).toBe(true);
      const result = await runHook(script, { [PUSH_HOOK_ENV]: channel.dir }, `${A} ${B} refs/heads/main\n`);
      expect(result).toEqual({ code: 0, stderr: "" });
      expect(seen.map((r) => r.updates)).toEqual([[{ oldSha: A, newSha: B, ref: "refs/heads/main" }]]);
    } finally {
      await channel.close();
    }
  });

  it("refuses, rather than waits, when the server closes the channel before answering", async () => {
    let started: () => void = () => {};
    const judging = new Promise<void>((resolve) => {
      started = resolve;
    });
    const channel = await openHookChannel(() => {
      started();
      return new Promise<never>(() => {});
    });
    const hook = runHook(script, { [PUSH_HOOK_ENV]: channel.dir }, `${A} ${B} refs/heads/main\n`);
    await judging;
    await channel.close();
    const result = await hook;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the server did not answer");
  });
});
