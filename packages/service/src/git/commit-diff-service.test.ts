import type { Repository } from "@kiln/domain";
import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

const text = (s: string) => new TextEncoder().encode(s);

describe.each(DIALECTS.slice(0, 1))("CommitDiffService on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  it("parses a commit's diff once per full id, and never shares a diff across names or repositories", async () => {
    const owner = await s.users.create({ username: "dee", email: "dee@example.com", password: "password1" });
    const repo: Repository = await s.repositories.create(owner, owner, { name: "code", autoInit: true });
    const other: Repository = await s.repositories.create(owner, owner, { name: "other", autoInit: true });
    const change = async (r: Repository, content: string) =>
      (
        await s.files.changeFiles(
          r,
          owner,
          [{ operation: "create", path: "a.txt", content: text(content) }],
          {
            message: "a",
          },
        )
      ).commit.sha;
    const sha = await change(repo, "one\ntwo\n");
    const first = await s.commitDiffs.parsed(repo, sha);
    expect(first.files.map((f) => f.name)).toEqual(["a.txt"]);
    expect(first.additions).toBe(2);
    // The same commit again is the remembered answer; by a branch name it is read afresh.
    expect(await s.commitDiffs.parsed(repo, sha)).toBe(first);
    const byName = await s.commitDiffs.parsed(repo, "main");
    expect(byName).not.toBe(first);
    expect(byName).toEqual(first);
    // Another repository with a commit of another content is its own.
    const otherSha = await change(other, "three\n");
    expect((await s.commitDiffs.parsed(other, otherSha)).additions).toBe(1);
    await expect(s.commitDiffs.parsed(other, sha)).rejects.toMatchObject({ kind: "not_found" });
  });
});
