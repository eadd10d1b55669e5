import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, withoutMachineConfig } from "./git-env.js";
import { runGit } from "./run-git.js";

describe("git processes ignore the machine's git configuration", () => {
  let dir: string;
  const saved = { system: process.env.GIT_CONFIG_SYSTEM, global: process.env.GIT_CONFIG_GLOBAL };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "kiln-git-env-"));
    await writeFile(join(dir, "system"), '[filter "lfs"]\n\tprocess = false\n\trequired = true\n');
    await writeFile(join(dir, "global"), "[user]\n\tname = Global\n");
    process.env.GIT_CONFIG_SYSTEM = join(dir, "system");
    process.env.GIT_CONFIG_GLOBAL = join(dir, "global");
  });
  afterAll(async () => {
    for (const [key, value] of [
      ["GIT_CONFIG_SYSTEM", saved.system],
      ["GIT_CONFIG_GLOBAL", saved.global],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(dir, { recursive: true, force: true });
  });

  const config = async (env?: NodeJS.ProcessEnv) =>
    (await runGit(["config", "--list"], env ? { env } : {})).stdout.toString("utf8");

  it("the configuration is there for a git run with the server's own environment", async () => {
    const seen = await config(process.env);
    expect(seen).toContain("filter.lfs.required=true");
    expect(seen).toContain("user.name=Global");
  });

  it("runGit's default, isolatedEnv and withoutMachineConfig read neither the system nor the user file", async () => {
    for (const env of [undefined, isolatedEnv(), withoutMachineConfig()]) {
      const seen = await config(env);
      expect(seen).not.toContain("filter.lfs");
      expect(seen).not.toContain("user.name=Global");
    }
  });

  it("withoutMachineConfig keeps the rest of the environment; isolatedEnv keeps only PATH", () => {
    const base = {
      PATH: "/bin",
      HOME: "/home/x",
      GIT_QUARANTINE_PATH: "/q",
      KILN_PUSH_HOOK: "/tmp/kiln-hook-x",
    };
    expect(withoutMachineConfig(base)).toEqual({
      ...base,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    });
    expect(Object.keys(isolatedEnv({ GIT_DIR: "/r" })).sort()).toEqual([
      "GIT_CONFIG_GLOBAL",
      "GIT_CONFIG_NOSYSTEM",
      "GIT_DIR",
      "GIT_TERMINAL_PROMPT",
      "LC_ALL",
      "PATH",
    ]);
  });
});
