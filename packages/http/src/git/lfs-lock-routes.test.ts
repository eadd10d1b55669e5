import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../test/repos.js";
import { openTestApp, readResult, type TestApp, type TestUser } from "../../test/support.js";

const LFS = "application/vnd.git-lfs+json";

describe.each(DIALECTS)("the Git LFS locking API on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  /** A request to a lock path of alice's repository `name`, as `user` (anonymous without one). */
  const send = async (
    method: string,
    path: string,
    opts: { user?: TestUser | string; body?: unknown; accept?: string; name?: string } = {},
  ) => {
    const headers: Record<string, string> = { Accept: opts.accept ?? LFS, "Content-Type": LFS };
    if (typeof opts.user === "string") headers.Authorization = opts.user;
    else if (opts.user) headers.Authorization = `token ${opts.user.token}`;
    const res = await t.app.request(
      `http://kiln.test/alice/${opts.name ?? repo.name}.git/info/lfs/locks${path}`,
      {
        method,
        headers,
        ...(opts.body !== undefined && method !== "GET" ? { body: JSON.stringify(opts.body) } : {}),
      },
    );
    return readResult(res);
  };
  const lock = async (path: string, user: TestUser, name?: string) =>
    send("POST", "", { user, body: { path, ref: { name: "refs/heads/main" } }, ...(name ? { name } : {}) });

  beforeAll(async () => {
    t = await openTestApp(dialect, { lfs: { locksPagingNum: 3, maxLocks: 6 } });
    alice = await t.user({ name: "alice" });
    bob = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, alice, "art");
    secret = await createRepo(t, alice, "vault", { private: true });
    for (const [user, permission] of [
      [bob, "write"],
      [reader, "read"],
    ] as const) {
      const res = await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: alice.token,
        body: { permission },
      });
      expect(res.status).toBe(204);
    }
  });
  afterAll(() => t?.close());

  it("creates a lock (201) and answers the holder with 409 for the same path in any case or spelling", async () => {
    const created = await lock("art/Hero.psd", alice);
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe(LFS);
    expect(created.json).toEqual({
      lock: {
        id: expect.stringMatching(/^\d+$/),
        path: "art/Hero.psd",
        locked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        owner: { name: "alice" },
      },
    });
    for (const [path, user] of [
      ["art/Hero.psd", alice],
      ["ART/hero.PSD", bob],
      ["./art//Hero.psd", bob],
      ["/art/x/../Hero.psd", bob],
    ] as const) {
      const conflict = await lock(path, user);
      expect(conflict.status).toBe(409);
      expect(conflict.json).toEqual({ lock: created.json.lock, message: "already created lock" });
    }
    for (const body of [{}, { path: 3 }, { path: "" }, { path: "/./" }]) {
      const res = await send("POST", "", { user: bob, body });
      expect(res.status).toBe(422);
      expect(res.json.message).toBeTruthy();
    }
    expect((await lock(`${"a".repeat(4097)}`, bob)).status).toBe(422);
  });

  it("lists locks to signed-in readers: filtered by path or id, paged with a cursor under a bounded limit", async () => {
    const ids: string[] = [];
    for (const path of ["b1.bin", "b2.bin", "b3.bin", "b4.bin"]) {
      const res = await lock(path, bob);
      expect(res.status).toBe(201);
      ids.push(res.json.lock.id);
    }
    const all: string[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const res = await send("GET", `?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { user: reader });
      expect(res.status).toBe(200);
      expect(res.json.locks.length).toBeLessThanOrEqual(2);
      all.push(...res.json.locks.map((l: { path: string }) => l.path));
      cursor = res.json.next_cursor ?? "";
      pages++;
    } while (cursor && pages < 10);
    expect(all).toEqual(["art/Hero.psd", "b1.bin", "b2.bin", "b3.bin", "b4.bin"]);
    expect(pages).toBe(3);
    // No limit, 0 or one above [server] LFS_LOCKS_PAGING_NUM (3 here): pages of 3.
    for (const limit of ["", "&limit=0", "&limit=1000", "&limit=x"]) {
      const res = await send("GET", `?refspec=refs/heads/main${limit}`, { user: reader });
      expect(res.json.locks).toHaveLength(3);
      expect(res.json.next_cursor).toBeTruthy();
    }
    const byPath = await send("GET", "?path=B2.BIN", { user: reader });
    expect(byPath.json).toEqual({ locks: [expect.objectContaining({ path: "b2.bin", id: ids[1] })] });
    const byId = await send("GET", `?id=${ids[2]}`, { user: reader });
    expect(byId.json.locks.map((l: { path: string }) => l.path)).toEqual(["b3.bin"]);
    expect((await send("GET", `?id=${ids[2]}&path=b1.bin`, { user: reader })).json).toEqual({ locks: [] });
    expect((await send("GET", "?path=none.bin", { user: reader })).json).toEqual({ locks: [] });
    for (const bad of ["?id=x", "?cursor=-1", "?cursor=1e3"]) {
      const res = await send("GET", bad, { user: reader });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe(LFS);
    }
  });

  it("splits a page into the caller's locks and everyone else's for verification", async () => {
    const res = await send("POST", "/verify", {
      user: bob,
      body: { ref: { name: "refs/heads/main" }, limit: 10 },
    });
    expect(res.status).toBe(200);
    // Pages of at most [server] LFS_LOCKS_PAGING_NUM (3 here), whatever the limit asked.
    expect(res.json.ours.map((l: { path: string }) => l.path)).toEqual(["b1.bin", "b2.bin"]);
    expect(res.json.theirs.map((l: { path: string }) => l.path)).toEqual(["art/Hero.psd"]);
    const next = await send("POST", "/verify", { user: bob, body: { cursor: res.json.next_cursor } });
    expect(next.json.ours.map((l: { path: string }) => l.path)).toEqual(["b3.bin", "b4.bin"]);
    expect(next.json.theirs).toEqual([]);
    expect(next.json.next_cursor).toBeUndefined();
    const asAlice = await send("POST", "/verify", { user: alice, body: {} });
    expect(asAlice.json.ours.map((l: { path: string }) => l.path)).toEqual(["art/Hero.psd"]);
  });

  it("unlocks a caller's own lock; another's only with force, by a repository admin", async () => {
    const list = (await send("GET", "", { user: reader })).json.locks as { id: string; path: string }[];
    const hero = list.find((l) => l.path === "art/Hero.psd")!;
    const b1 = list.find((l) => l.path === "b1.bin")!;
    const notByBob = await send("POST", `/${hero.id}/unlock`, { user: bob, body: {} });
    expect(notByBob.status).toBe(403);
    expect(notByBob.json.message).toContain("alice");
    // A writer is no admin: force is refused too.
    expect((await send("POST", `/${hero.id}/unlock`, { user: bob, body: { force: true } })).status).toBe(403);
    expect((await send("POST", `/${b1.id}/unlock`, { user: alice, body: {} })).status).toBe(403);
    const forced = await send("POST", `/${b1.id}/unlock`, { user: alice, body: { force: true } });
    expect(forced.status).toBe(200);
    expect(forced.json).toEqual({
      lock: expect.objectContaining({ id: b1.id, path: "b1.bin", owner: { name: bob.name } }),
    });
    const own = await send("POST", `/${hero.id}/unlock`, { user: alice, body: {} });
    expect(own.status).toBe(200);
    expect((await send("POST", `/${hero.id}/unlock`, { user: alice, body: {} })).status).toBe(404);
    expect((await send("POST", "/99999999/unlock", { user: alice, body: {} })).status).toBe(404);
    expect((await send("POST", "/abc/unlock", { user: alice, body: {} })).status).toBe(400);
    const left = (await send("GET", "", { user: reader })).json.locks.map((l: { path: string }) => l.path);
    expect(left).toEqual(["b2.bin", "b3.bin", "b4.bin"]);
  });

  it("finds a lock only in its own repository", async () => {
    const other = await lock("v.bin", alice, secret.name);
    expect(other.status).toBe(201);
    const id = other.json.lock.id as string;
    expect((await send("GET", `?id=${id}`, { user: reader })).json).toEqual({ locks: [] });
    expect((await send("POST", `/${id}/unlock`, { user: alice, body: { force: true } })).status).toBe(404);
    expect((await send("GET", "", { user: alice, name: secret.name })).json.locks).toHaveLength(1);
  });

  it("decides access as the git transport does", async () => {
    // Anonymous callers are challenged, even on a public repository (Forgejo lists to signed-in users).
    for (const [method, path] of [
      ["GET", ""],
      ["POST", ""],
      ["POST", "/verify"],
      ["POST", "/1/unlock"],
    ] as const) {
      const res = await send(method, path, { body: { path: "x" } });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Basic");
      // A wrong credential is 401 too, never taken as anonymous.
      expect((await send(method, path, { user: "token nope", body: { path: "x" } })).status).toBe(401);
    }
    // Readers may list, not lock, verify or unlock.
    expect((await lock("r.bin", reader)).status).toBe(403);
    expect((await send("POST", "/verify", { user: reader, body: {} })).status).toBe(403);
    // A private repository is not there for outsiders.
    expect((await send("GET", "", { user: outsider, name: secret.name })).status).toBe(404);
    expect((await lock("x.bin", outsider, secret.name)).status).toBe(404);
    expect((await send("GET", "", { user: outsider, name: "nowhere" })).status).toBe(404);
    // A read-only token may list but not lock.
    const { secret: readOnly } = await t.services.tokens.create(
      await t.services.users.getByName(bob.name),
      "read-only",
      ["read:repository"],
    );
    expect((await send("GET", "", { user: `token ${readOnly}` })).status).toBe(200);
    expect((await send("POST", "", { user: `token ${readOnly}`, body: { path: "t.bin" } })).status).toBe(403);
    // Clients must accept the LFS media type.
    expect((await send("GET", "", { user: reader, accept: "application/json" })).status).toBe(415);
    expect((await send("GET", "", { user: reader, accept: `${LFS}; charset=utf-8` })).status).toBe(200);
  });

  it("answers the holder of a path whose capitals lower differently in JavaScript and SQL", async () => {
    // "İ" lowers to "i" plus a combining dot in JavaScript and to "i" in the database.
    const created = await lock("İcon.psd", alice);
    expect(created.status).toBe(201);
    const conflict = await lock("İcon.psd", bob);
    expect(conflict.status).toBe(409);
    expect(conflict.json.lock).toEqual(created.json.lock);
    const found = await send("GET", `?path=${encodeURIComponent("İcon.psd")}`, { user: reader });
    expect(found.json.locks).toEqual([created.json.lock]);
    expect((await send("POST", `/${created.json.lock.id}/unlock`, { user: alice, body: {} })).status).toBe(
      200,
    );
  });

  it("holds at most [server] LFS_MAX_LOCKS locks per repository, which every push reads", async () => {
    const many = await createRepo(t, alice, "many");
    for (let i = 0; i < 6; i++) expect((await lock(`m${i}.bin`, alice, many.name)).status).toBe(201);
    const over = await lock("m6.bin", alice, many.name);
    expect(over.status).toBe(422);
    expect(over.json.message).toContain("6 locks");
    // A path already locked still answers its holder; another repository has its own count.
    expect((await lock("M0.BIN", alice, many.name)).status).toBe(409);
    expect((await lock("m6.bin", alice, secret.name)).status).toBe(201);
    const first = (await send("GET", "", { user: alice, name: many.name })).json.locks[0];
    expect(
      (await send("POST", `/${first.id}/unlock`, { user: alice, body: {}, name: many.name })).status,
    ).toBe(200);
    expect((await lock("m6.bin", alice, many.name)).status).toBe(201);
  });

  it("deletes a repository's locks with it", async () => {
    const doomed = await createRepo(t, alice, "doomed");
    expect((await lock("d.bin", alice, doomed.name)).status).toBe(201);
    expect((await t.call("DELETE", doomed.path, { token: alice.token })).status).toBe(204);
    await createRepo(t, alice, "doomed");
    expect((await send("GET", "", { user: alice, name: "doomed" })).json).toEqual({ locks: [] });
    expect((await lock("d.bin", alice, "doomed")).status).toBe(201);
  });

  it("is not served with LFS off", async () => {
    const off = await openTestApp(dialect, { lfs: { enabled: false } });
    try {
      const owner = await off.user({ name: "alice" });
      await createRepo(off, owner, "art");
      const res = await off.app.request("http://kiln.test/alice/art.git/info/lfs/locks", {
        headers: { Accept: LFS, Authorization: `token ${owner.token}` },
      });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
