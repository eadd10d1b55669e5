import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { startTestServer } from "../../test/test-server.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitMigrationError } from "../errors/git-error.js";
import { LfsStore } from "../lfs/lfs-store.js";
import { listBranches } from "../objects/branches.js";
import { listTags } from "../objects/tags.js";
import { checkRemote, SOURCE_UNREADABLE_MESSAGE } from "./checked-remote.js";
import { cloneRemote } from "./clone-remote.js";

/** A loopback HTTP server answering every request with `answer`; counts the requests it got. */
async function tinyServer(answer: (res: import("node:http").ServerResponse) => void) {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const s = await tinyServer((res) => res.end());
  await s.close();
  return s.port;
}

describe("cloneRemote", () => {
  let fx: FixtureRepo;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const local = { allows: () => true };
  beforeAll(async () => {
    fx = await fixtureRepo();
    server = await startTestServer(fx.store, new LfsStore(join(fx.store.root, "..", "lfs")));
  });
  afterAll(async () => {
    await server.close();
    await fx.cleanup();
  });

  const failure = (url: string, name: string) =>
    checkRemote(url, local)
      .then((from) => cloneRemote(fx.store, "bob", name, { from }))
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );

  it("clones branches and tags over HTTP into a new repository with hooks and no remote", async () => {
    const from = await checkRemote(`${server.url}/alice/fixture.git`, local);
    const repo = await cloneRemote(fx.store, "bob", "copy", { from });
    expect((await listBranches(repo)).map((b) => [b.name, b.commit.sha])).toEqual([
      ["feature", fx.shas.two],
      ["main", fx.shas.three],
    ]);
    expect((await listTags(repo)).map((t) => t.name)).toEqual(["v1", "v2"]);
    expect(await fx.cli.ok(["remote"], repo.gitdir)).toBe("");
    expect(await readdir(join(repo.gitdir, "hooks"))).toEqual(
      expect.arrayContaining(["pre-receive", "post-receive"]),
    );
  });

  it("migrates an empty repository from a smart HTTP server", async () => {
    await fx.store.create("alice", "empty");
    const from = await checkRemote(`${server.url}/alice/empty.git`, local);
    const repo = await cloneRemote(fx.store, "bob", "empty-copy", { from });
    expect(await listBranches(repo)).toEqual([]);
  });

  it("connects to the address checked, never resolving the name again", async () => {
    const port = new URL(server.url).port;
    // The system resolver knows no such name: only the pin can bring git to the server.
    const from = await checkRemote(`http://git.kiln-pinned.test:${port}/alice/fixture.git`, {
      allows: () => true,
      resolve: async () => ["127.0.0.1"],
    });
    const repo = await cloneRemote(fx.store, "bob", "pinned", { from });
    expect((await listBranches(repo)).length).toBe(2);
    // A later answer is never asked for: pinned to an address where nothing listens, the clone fails.
    const moved = await checkRemote(`http://git.kiln-pinned.test:${port}/alice/fixture.git`, {
      allows: () => true,
      resolve: async () => ["127.0.0.3"],
    });
    await expect(cloneRemote(fx.store, "bob", "moved", { from: moved })).rejects.toThrow(
      SOURCE_UNREADABLE_MESSAGE,
    );
  });

  it("follows no redirect, even to a repository that would clone", async () => {
    const target = `${server.url}/alice/fixture.git`;
    const redirector = await tinyServer((res) => {
      res.writeHead(302, { location: `${target}/info/refs?service=git-upload-pack` }).end();
    });
    try {
      const error = await failure(`http://127.0.0.1:${redirector.port}/alice/fixture.git`, "redirected");
      expect(error).toBeInstanceOf(GitMigrationError);
      expect(error?.message).toBe(SOURCE_UNREADABLE_MESSAGE);
      expect(String(error?.cause)).toContain("302");
      expect(redirector.hits).toHaveLength(1);
      expect(await fx.store.exists("bob", "redirected")).toBe(false);
    } finally {
      await redirector.close();
    }
  });

  it("fails with one message whatever went wrong: closed port, not git, HTTP error, missing repository", async () => {
    const web = await tinyServer((res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>hi</html>"),
    );
    const denied = await tinyServer((res) => res.writeHead(401, { "www-authenticate": "Basic" }).end());
    try {
      const errors = [
        await failure(`http://127.0.0.1:${await closedPort()}/o/r.git`, "closed"),
        await failure(`http://127.0.0.1:${web.port}/o/r.git`, "web"),
        await failure(`http://127.0.0.1:${denied.port}/o/r.git`, "denied"),
        await failure(`${server.url}/alice/missing.git`, "missing"),
      ];
      for (const error of errors) {
        expect(error).toBeInstanceOf(GitMigrationError);
        expect(error?.message).toBe(SOURCE_UNREADABLE_MESSAGE);
      }
      // The causes differ, and say why, for the server's log.
      expect(new Set(errors.map((e) => String(e?.cause))).size).toBe(4);
      for (const name of ["closed", "web", "denied", "missing"])
        expect(await fx.store.exists("bob", name)).toBe(false);
      expect(await readdir(join(fx.store.root, ".tmp"))).toEqual([]);
    } finally {
      await web.close();
      await denied.close();
    }
  });

  it("clones a local path only when given one explicitly, and leaves nothing behind when the name is taken", async () => {
    const repo = await cloneRemote(fx.store, "bob", "local", { from: { localPath: fx.repo.gitdir } });
    expect((await listBranches(repo)).length).toBe(2);
    await expect(
      cloneRemote(fx.store, "bob", "x", { from: { localPath: "relative/path" } }),
    ).rejects.toBeInstanceOf(GitInvalidArgumentError);
    const lookalike = { url: { href: `${server.url}/alice/fixture.git` }, addresses: [] };
    await expect(cloneRemote(fx.store, "bob", "x", { from: lookalike as never })).rejects.toBeInstanceOf(
      GitInvalidArgumentError,
    );
    const from = await checkRemote(`${server.url}/alice/fixture.git`, local);
    await expect(cloneRemote(fx.store, "bob", "copy", { from })).rejects.toBeInstanceOf(
      GitAlreadyExistsError,
    );
    expect(await readdir(join(fx.store.root, ".tmp"))).toEqual([]);
  });
});
