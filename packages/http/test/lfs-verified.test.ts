import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo, usageOf } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

const LFS = { "Content-Type": "application/vnd.git-lfs+json", Accept: "application/vnd.git-lfs+json" };
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Content whose size is written nowhere else, so a leaked size would show. */
const content = Buffer.from("the private payload of alice, 4242 bytes or so ".repeat(37));
const oid = sha256(content);
const size = content.length;
const missingOid = sha256(Buffer.from("never uploaded anywhere"));

describe.each(DIALECTS)("verified LFS on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let vault: TestRepo;
  let claim: TestRepo;

  /** A request to a git/LFS path with a token (or `Basic` with the token as password). */
  const send = (user: TestUser | string | null, method: string, path: string, body?: string | Uint8Array) => {
    const token = typeof user === "string" ? user : user?.token;
    return t.app.request(`http://kiln.test${path}`, {
      method,
      headers: { ...LFS, ...(token ? { Authorization: `token ${token}` } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
  };
  const lfs = (owner: TestUser, repo: TestRepo | string) =>
    `/${owner.name}/${typeof repo === "string" ? repo : repo.name}.git/info/lfs`;
  const batch = async (
    user: TestUser | string,
    base: string,
    operation: "upload" | "download",
    objects: { oid: string; size: number }[],
  ) => {
    const res = await send(user, "POST", `${base}/objects/batch`, JSON.stringify({ operation, objects }));
    expect(res.status).toBe(200);
    return ((await res.json()) as { objects: Record<string, unknown>[] }).objects;
  };
  const upload = (user: TestUser, base: string, body: Buffer, o = oid, s = size) =>
    send(user, "PUT", `${base}/objects/${o}/${s}`, new Uint8Array(body));
  const verify = (user: TestUser, base: string, o: string, s: number) =>
    send(user, "POST", `${base}/verify`, JSON.stringify({ oid: o, size: s }));
  const lfsSizeOf = async (owner: TestUser, repo: TestRepo | string) => {
    const res = await t.call("GET", `/repos/${owner.name}/${typeof repo === "string" ? repo : repo.name}`, {
      token: owner.token,
    });
    return t.services.repositories
      .findByName(await t.services.users.getByName(owner.name), res.json.name)
      .then((r) => r?.lfsSize);
  };
  /** An answer with the oid blanked out, to compare an object's answer with a missing one's. */
  const blank = async (res: Response, o: string) => ({
    status: res.status,
    type: res.headers.get("content-type"),
    body: (await res.text()).replaceAll(o, "<oid>"),
  });
  const blankObject = (object: Record<string, unknown> | undefined, o: string) =>
    JSON.parse(JSON.stringify(object).replaceAll(o, "<oid>"));

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    bob = await t.user();
    carol = await t.user();
    vault = await createRepo(t, alice, "vault", { private: true });
    claim = await createRepo(t, bob, "claim");
    const collab = await t.call("PUT", `/repos/${alice.name}/vault/collaborators/${carol.name}`, {
      token: alice.token,
      body: { permission: "read" },
    });
    expect(collab.status).toBe(204);
    const [asked] = await batch(alice, lfs(alice, vault), "upload", [{ oid, size }]);
    expect(Object.keys((asked?.actions as object) ?? {})).toEqual(["upload", "verify"]);
    expect((await upload(alice, lfs(alice, vault), content)).status).toBe(200);
    expect((await verify(alice, lfs(alice, vault), oid, size)).status).toBe(200);
  });
  afterAll(() => t?.close());

  it("counts the owner's verified upload in the repository's LFS size and the owner's usage", async () => {
    expect(await lfsSizeOf(alice, vault)).toBe(size);
    expect((await usageOf(t, alice.name)).lfs).toBe(size);
  });

  it("asks an outsider who names a stored object for an upload, as if the object did not exist", async () => {
    const [known, missing] = await batch(bob, lfs(bob, claim), "upload", [
      { oid, size },
      { oid: missingOid, size },
    ]);
    expect(blankObject(known, oid)).toEqual(blankObject(missing, missingOid));
    expect(Object.keys((known?.actions as object) ?? {})).toEqual(["upload", "verify"]);
    const [wrongSize] = await batch(bob, lfs(bob, claim), "upload", [{ oid, size: 3 }]);
    expect(wrongSize?.error).toBeUndefined();
    expect(JSON.stringify(wrongSize)).not.toContain(String(size));
    expect(await t.services.repositories.lfsObjectsOf(await repoOf(bob, claim), [oid])).toEqual(new Map());
    expect(await lfsSizeOf(bob, claim)).toBe(0);
  });

  it("refuses an outsider's upload of a stored object with the wrong body, revealing no size", async () => {
    const base = lfs(bob, claim);
    const wrong = Buffer.from(content).fill(0x41, 0, 10);
    const attempts = [
      await upload(bob, base, wrong),
      await upload(bob, base, Buffer.alloc(0)),
      await upload(bob, base, content.subarray(0, 10), oid, 10),
      await upload(bob, base, Buffer.concat([content, content]), oid, size * 2),
      await upload(bob, base, content.subarray(1)),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(422);
      const text = await res.text();
      expect(text).not.toContain(String(size));
    }
    expect(await lfsSizeOf(bob, claim)).toBe(0);
    expect((await usageOf(t, bob.name)).lfs).toBe(0);
    const path = t.services.repositories.lfs.pathOf(oid);
    expect(await readFile(path)).toEqual(content);
  });

  it("answers download, get and verify for an object the repository does not hold exactly as for a missing one", async () => {
    const base = lfs(bob, claim);
    const [known, missing] = await batch(bob, base, "download", [
      { oid, size },
      { oid: missingOid, size },
    ]);
    expect(known?.error).toEqual({ code: 404, message: "Object does not exist" });
    expect(blankObject(known, oid)).toEqual(blankObject(missing, missingOid));
    expect(await blank(await send(bob, "GET", `${base}/objects/${oid}`), oid)).toEqual(
      await blank(await send(bob, "GET", `${base}/objects/${missingOid}`), missingOid),
    );
    for (const s of [size, 1]) {
      const res = await verify(bob, base, oid, s);
      expect(res.status).toBe(404);
      expect(await blank(res, oid)).toEqual(await blank(await verify(bob, base, missingOid, s), missingOid));
    }
  });

  it("answers a size mismatch on the repository's own object without the stored size", async () => {
    const res = await verify(alice, lfs(alice, vault), oid, 5);
    expect(res.status).toBe(422);
    expect(await res.text()).not.toContain(String(size));
    const [object] = await batch(alice, lfs(alice, vault), "download", [{ oid, size: 5 }]);
    expect(object?.error).toMatchObject({ code: 422 });
    expect(JSON.stringify(object)).not.toContain(String(size));
  });

  it("lets a collaborator who can read a holding repository link the object without upload, counted once", async () => {
    const mine = await createRepo(t, carol, "mine");
    const base = lfs(carol, mine);
    for (let round = 0; round < 2; round++) {
      const [object] = await batch(carol, base, "upload", [{ oid, size }]);
      expect(object).toEqual({ oid, size, authenticated: true });
    }
    expect(await lfsSizeOf(carol, mine)).toBe(size);
    expect((await usageOf(t, carol.name)).lfs).toBe(size);
    const [download] = await batch(carol, base, "download", [{ oid, size }]);
    expect(Object.keys((download?.actions as object) ?? {})).toEqual(["download"]);
    const res = await send(carol, "GET", `${base}/objects/${oid}`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(content);
    // A size other than the stored one is not linked: the client must upload.
    const other = await createRepo(t, carol, "other");
    const [wrong] = await batch(carol, lfs(carol, other), "upload", [{ oid, size: size + 1 }]);
    expect(Object.keys((wrong?.actions as object) ?? {})).toEqual(["upload", "verify"]);
    expect(await lfsSizeOf(carol, other)).toBe(0);
  });

  it("takes an outsider's upload of the real content, verified, and counts it", async () => {
    const loner = await t.user();
    const own = await createRepo(t, loner, "own");
    const base = lfs(loner, own);
    expect((await upload(loner, base, content)).status).toBe(200);
    expect((await verify(loner, base, oid, size)).status).toBe(200);
    expect(await lfsSizeOf(loner, own)).toBe(size);
    expect((await usageOf(t, loner.name)).lfs).toBe(size);
    const res = await send(loner, "GET", `${base}/objects/${oid}`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(content);
    expect((await upload(loner, base, content)).status).toBe(200);
    expect(await lfsSizeOf(loner, own)).toBe(size);
  });

  it("sees through a public-only token and a restricted account only what they see elsewhere", async () => {
    const pub = await createRepo(t, alice, "pub");
    const aliceUser = await t.services.users.getByName(alice.name);
    const { secret: publicOnly } = await t.services.tokens.create(aliceUser, "public-only", [
      "public-only",
      "all",
    ]);
    // An object only a private repository holds: alice's full token may reuse it, her public-only token may not.
    const secret = Buffer.from("only in the vault");
    const secretOid = sha256(secret);
    expect((await upload(alice, lfs(alice, vault), secret, secretOid, secret.length)).status).toBe(200);
    const object = { oid: secretOid, size: secret.length };
    const [hidden] = await batch(publicOnly, lfs(alice, pub), "upload", [object]);
    expect(Object.keys((hidden?.actions as object) ?? {})).toEqual(["upload", "verify"]);
    expect(await lfsSizeOf(alice, pub)).toBe(0);
    // The same through Basic auth: the public-only token as password is still public-only; the password is not.
    const basic = (password: string) =>
      t.app.request(`http://kiln.test${lfs(alice, pub)}/objects/batch`, {
        method: "POST",
        headers: {
          ...LFS,
          Authorization: `Basic ${Buffer.from(`${alice.name}:${password}`).toString("base64")}`,
        },
        body: JSON.stringify({ operation: "upload", objects: [object] }),
      });
    const viaToken = (await (await basic(publicOnly)).json()) as { objects: { actions?: object }[] };
    expect(Object.keys(viaToken.objects[0]?.actions ?? {})).toEqual(["upload", "verify"]);
    expect(await lfsSizeOf(alice, pub)).toBe(0);
    const viaPassword = (await (await basic("password1")).json()) as { objects: unknown[] };
    expect(viaPassword.objects[0]).toEqual({ ...object, authenticated: true });
    expect(await lfsSizeOf(alice, pub)).toBe(secret.length);

    // An object in a public repository: an outsider may reuse it, a restricted user may not.
    const open = Buffer.from("public payload");
    const openOid = sha256(open);
    expect((await upload(alice, lfs(alice, pub), open, openOid, open.length)).status).toBe(200);
    const [linked] = await batch(bob, lfs(bob, claim), "upload", [{ oid: openOid, size: open.length }]);
    expect(linked).toEqual({ oid: openOid, size: open.length, authenticated: true });
    const restricted = await t.user();
    const cell = await createRepo(t, restricted, "cell");
    const admin = await t.user({ admin: true });
    const patched = await t.call("PATCH", `/admin/users/${restricted.name}`, {
      token: admin.token,
      body: { restricted: true, login_name: restricted.name, source_id: 0 },
    });
    expect(patched.status).toBe(200);
    const [refused] = await batch(restricted, lfs(restricted, cell), "upload", [
      { oid: openOid, size: open.length },
    ]);
    expect(Object.keys((refused?.actions as object) ?? {})).toEqual(["upload", "verify"]);
    expect(await lfsSizeOf(restricted, cell)).toBe(0);
  });

  async function repoOf(owner: TestUser, repo: TestRepo) {
    const found = await t.services.repositories.findByName(
      await t.services.users.getByName(owner.name),
      repo.name,
    );
    if (!found) throw new Error("no repository");
    return found;
  }
});
