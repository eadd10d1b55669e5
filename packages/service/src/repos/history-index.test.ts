import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RepoStore } from "@kiln/git";
import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../context.js";
import { HistoryIndexer } from "./history-index.js";

const author = {
  name: "Ann",
  email: "ann@example.com",
  date: new Date("2024-03-01T10:00:00Z"),
  timezoneOffset: 0,
};

function context(warnings: string[]): ServiceContext {
  return { logger: { warn: (_fields: unknown, message: string) => warnings.push(message) } } as never;
}

describe("HistoryIndexer", () => {
  it("writes the commit-graph after the caller moved on, and is idle once written", async () => {
    const dir = await mkdtemp(join(tmpdir(), "kiln-history-"));
    try {
      const store = new RepoStore({ root: dir });
      const git = await store.create("ann", "indexed", { autoInit: { author } });
      const warnings: string[] = [];
      const indexer = new HistoryIndexer(context(warnings));
      indexer.schedule(1, git);
      indexer.schedule(1, git);
      await indexer.idle();
      expect(await readdir(join(git.gitdir, "objects", "info", "commit-graphs"))).not.toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("logs, and does not throw, when the repository is gone before its turn", async () => {
    const dir = await mkdtemp(join(tmpdir(), "kiln-history-"));
    try {
      const store = new RepoStore({ root: dir });
      const git = await store.create("ann", "gone", { autoInit: { author } });
      await store.delete("ann", "gone");
      const warnings: string[] = [];
      const indexer = new HistoryIndexer(context(warnings));
      indexer.schedule(2, git);
      await indexer.idle();
      expect(warnings).toEqual(["commit-graph not updated"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
