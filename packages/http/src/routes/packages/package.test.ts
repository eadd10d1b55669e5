import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { quotaRecount, quotaUsage } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CallResult,
  openTestApp,
  readResult,
  type TestApp,
  type TestUser,
} from "../../../test/support.js";

/** A request to the package registries (`/api/packages/…`), beside the API. */
async function registry(
  t: TestApp,
  method: string,
  path: string,
  opts: { token?: string; body?: Uint8Array | string; headers?: Record<string, string> } = {},
): Promise<CallResult & { bytes: Buffer }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `token ${opts.token}`;
  const res = await t.app.request(`http://kiln.test/api/packages${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  const bytes = Buffer.from(await res.clone().arrayBuffer());
  return { ...(await readResult(res)), bytes };
}

const sha = (algorithm: string, data: Uint8Array) => createHash(algorithm).update(data).digest("hex");

/** Every blob file of the packages store (not the unfinished uploads in .tmp). */
function storedBlobs(t: TestApp): string[] {
  const root = t.settings.packages.path;
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      if (e === ".tmp") continue;
      if (depth === 2) out.push(e);
      else walk(join(dir, e), depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

describe.each(DIALECTS)("packages over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  const org = `pkg-org-${randomBytes(3).toString("hex")}`;

  const usage = async (ownerId: number) => (await quotaUsage.getUsage(t.services.ctx.db, ownerId)).packages;
  /** The ledger equals the recount from the package tables (what `kiln doctor quota` checks). */
  const expectNoDrift = async (ownerIds: number[]) => {
    const recount = await quotaRecount.recountUsage(t.services.ctx.db, ownerIds);
    for (const id of ownerIds) expect(await usage(id)).toBe(recount.get(id)?.packages);
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    bob = await t.user();
    outsider = await t.user();
    admin = await t.user({ admin: true });
    expect((await t.call("POST", "/orgs", { token: alice.token, body: { username: org } })).status).toBe(201);
    const team = await t.call("POST", `/orgs/${org}/teams`, {
      token: alice.token,
      body: { name: "packagers", permission: "write", units: ["repo.packages"] },
    });
    expect(team.status).toBe(201);
    expect(
      (await t.call("PUT", `/teams/${team.json.id}/members/${bob.name}`, { token: alice.token })).status,
    ).toBe(204);
  });
  afterAll(() => t?.close());

  it("stores, serves byte for byte, lists and deletes generic files, with the owner's usage exact", async () => {
    const a = randomBytes(150_000);
    const b = Buffer.from("hello, packages\n");
    const base = `/${alice.name}/generic/tool/1.0.0`;
    expect((await registry(t, "PUT", `${base}/tool.bin`, { token: alice.token, body: a })).status).toBe(201);
    expect((await registry(t, "PUT", `${base}/notes.txt`, { token: alice.token, body: b })).status).toBe(201);
    expect(await usage(alice.id)).toBe(a.length + b.length);

    // The same file again: 409, nothing changes.
    const again = await registry(t, "PUT", `${base}/tool.bin`, { token: alice.token, body: b });
    expect(again.status).toBe(409);
    expect(again.text).toBe("package file already exists");
    expect(await usage(alice.id)).toBe(a.length + b.length);

    const got = await registry(t, "GET", `${base}/tool.bin`, { token: alice.token });
    expect(got.status).toBe(200);
    expect(got.bytes.equals(a)).toBe(true);
    expect(got.headers.get("content-length")).toBe(String(a.length));
    // Public owner: anyone downloads, anonymous included; a range is served as such.
    const anon = await registry(t, "GET", `${base}/notes.txt`);
    expect(anon.bytes.equals(b)).toBe(true);
    // Downloaded, never rendered: a browser may not sniff a type out of the bytes.
    expect(anon.headers.get("content-type")).toBe("application/octet-stream");
    expect(anon.headers.get("x-content-type-options")).toBe("nosniff");
    const ranged = await registry(t, "GET", `${base}/tool.bin`, { headers: { Range: "bytes=10-19" } });
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.equals(a.subarray(10, 20))).toBe(true);
    expect(ranged.headers.get("content-range")).toBe(`bytes 10-19/${a.length}`);

    const listed = await t.call("GET", `/packages/${alice.name}?type=generic&q=TOO`, { token: alice.token });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-total-count")).toBe("1");
    expect(listed.json).toMatchObject([
      {
        type: "generic",
        name: "tool",
        version: "1.0.0",
        owner: { login: alice.name },
        creator: { login: alice.name },
      },
    ]);
    expect((await t.call("GET", `/packages/${alice.name}?type=npm`)).json).toEqual([]);
    const files = await t.call("GET", `/packages/${alice.name}/generic/tool/1.0.0/files`);
    expect(files.json).toEqual([
      {
        Size: b.length,
        id: expect.any(Number),
        name: "notes.txt",
        md5: sha("md5", b),
        sha1: sha("sha1", b),
        sha256: sha("sha256", b),
        sha512: sha("sha512", b),
      },
      {
        Size: a.length,
        id: expect.any(Number),
        name: "tool.bin",
        md5: sha("md5", a),
        sha1: sha("sha1", a),
        sha256: sha("sha256", a),
        sha512: sha("sha512", a),
      },
    ]);
    const used = await t.call("GET", "/user/quota/packages", { token: alice.token });
    expect(used.json).toEqual([
      {
        name: "tool",
        type: "Generic",
        version: "1.0.0",
        size: a.length + b.length,
        html_url: `http://kiln.test/${alice.name}/-/packages/generic/tool/1.0.0`,
      },
    ]);
    expect(
      (await t.call("GET", "/user/quota", { token: alice.token })).json.used.size.assets.packages.all,
    ).toBe(a.length + b.length);
    await expectNoDrift([alice.id]);

    // Deleting one file releases its bytes; deleting the last takes the version along.
    expect((await registry(t, "DELETE", `${base}/tool.bin`, { token: alice.token })).status).toBe(204);
    expect(await usage(alice.id)).toBe(b.length);
    expect((await registry(t, "GET", `${base}/tool.bin`)).status).toBe(404);
    expect((await registry(t, "DELETE", `${base}/notes.txt`, { token: alice.token })).status).toBe(204);
    expect(await usage(alice.id)).toBe(0);
    expect((await t.call("GET", `/packages/${alice.name}/generic/tool/1.0.0`)).status).toBe(404);
    await expectNoDrift([alice.id]);
  });

  it("deletes a version through the registry and through the API", async () => {
    const data = randomBytes(1000);
    for (const v of ["2.0.0", "3.0.0"])
      expect(
        (
          await registry(t, "PUT", `/${alice.name}/generic/lib/${v}/lib.tgz`, {
            token: alice.token,
            body: data,
          })
        ).status,
      ).toBe(201);
    expect(await usage(alice.id)).toBe(2000);
    const got = await t.call("GET", `/packages/${alice.name}/generic/lib/2.0.0`, { token: alice.token });
    expect(got.json).toMatchObject({ name: "lib", version: "2.0.0", type: "generic", repository: null });
    expect(
      (await registry(t, "DELETE", `/${alice.name}/generic/lib/2.0.0`, { token: alice.token })).status,
    ).toBe(204);
    expect(await usage(alice.id)).toBe(1000);
    // Others may not delete: 403 on the API, 401 with a challenge on the registry.
    expect(
      (await t.call("DELETE", `/packages/${alice.name}/generic/lib/3.0.0`, { token: outsider.token })).status,
    ).toBe(403);
    const refused = await registry(t, "DELETE", `/${alice.name}/generic/lib/3.0.0`, {
      token: outsider.token,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("Basic");
    expect(
      (await t.call("DELETE", `/packages/${alice.name}/generic/lib/3.0.0`, { token: alice.token })).status,
    ).toBe(204);
    expect(await usage(alice.id)).toBe(0);
    expect((await t.call("GET", `/packages/${alice.name}`)).json).toEqual([]);
    await expectNoDrift([alice.id]);
  });

  it("counts an organization's packages against the organization, not the member who uploads", async () => {
    const data = randomBytes(4321);
    const put = await registry(t, "PUT", `/${org}/generic/shared/1.0/shared.bin`, {
      token: bob.token,
      body: data,
    });
    expect(put.status).toBe(201);
    const orgId = (await t.call("GET", `/orgs/${org}`)).json.id as number;
    expect(await usage(orgId)).toBe(4321);
    expect(await usage(bob.id)).toBe(0);
    const orgQuota = await t.call("GET", `/orgs/${org}/quota`, { token: alice.token });
    expect(orgQuota.json.used.size.assets.packages.all).toBe(4321);
    expect(
      (await t.call("GET", "/user/quota", { token: bob.token })).json.used.size.assets.packages.all,
    ).toBe(0);
    const orgUsed = await t.call("GET", `/orgs/${org}/quota/packages`, { token: alice.token });
    expect(orgUsed.json).toMatchObject([{ name: "shared", size: 4321 }]);
    expect((await t.call("GET", `/packages/${org}/generic/shared/1.0`)).json.creator.login).toBe(bob.name);
    // A user outside the organization may read its public packages but not write them.
    expect(
      (await registry(t, "GET", `/${org}/generic/shared/1.0/shared.bin`, { token: outsider.token })).status,
    ).toBe(200);
    expect(
      (await registry(t, "PUT", `/${org}/generic/shared/1.0/other.bin`, { token: outsider.token, body: "x" }))
        .status,
    ).toBe(401);
    expect((await t.call("DELETE", `/packages/${org}/generic/shared/1.0`, { token: bob.token })).status).toBe(
      204,
    );
    expect(await usage(orgId)).toBe(0);
    await expectNoDrift([orgId, bob.id]);
  });

  it("hides a private owner's packages and packages linked to a private repository", async () => {
    const hidden = await t.user({ visibility: "private" });
    const data = Buffer.from("secret bytes");
    expect(
      (await registry(t, "PUT", `/${hidden.name}/generic/s/1/s.bin`, { token: hidden.token, body: data }))
        .status,
    ).toBe(201);
    const { secret: publicOnly } = await t.services.tokens.create(
      await t.services.users.getByName(hidden.name),
      "po",
      ["public-only", "all"],
    );
    for (const token of [undefined, outsider.token, publicOnly]) {
      const who = token ?? "anonymous";
      expect(
        (await registry(t, "GET", `/${hidden.name}/generic/s/1/s.bin`, token ? { token } : {})).status,
        who,
      ).toBe(404);
      expect((await t.call("GET", `/packages/${hidden.name}`, token ? { token } : {})).status, who).toBe(404);
      expect(
        (await t.call("GET", `/packages/${hidden.name}/generic/s/1`, token ? { token } : {})).status,
        who,
      ).toBe(404);
    }
    expect(
      (await registry(t, "GET", `/${hidden.name}/generic/s/1/s.bin`, { token: hidden.token })).bytes,
    ).toEqual(data);
    expect(
      (await registry(t, "GET", `/${hidden.name}/generic/s/1/s.bin`, { token: admin.token })).status,
    ).toBe(200);

    // A package of a public user linked to its private repository shows only to who sees the repository.
    expect(
      (await t.call("POST", "/user/repos", { token: alice.token, body: { name: "closed", private: true } }))
        .status,
    ).toBe(201);
    expect(
      (await registry(t, "PUT", `/${alice.name}/generic/linked/1/l.bin`, { token: alice.token, body: data }))
        .status,
    ).toBe(201);
    expect(
      (await t.call("POST", `/packages/${alice.name}/generic/linked/-/link/closed`, { token: alice.token }))
        .status,
    ).toBe(201);
    expect(
      (await t.call("POST", `/packages/${alice.name}/generic/linked/-/link/closed`, { token: alice.token }))
        .status,
    ).toBe(400);
    const own = await t.call("GET", `/packages/${alice.name}/generic/linked/1`, { token: alice.token });
    expect(own.json.repository.name).toBe("closed");
    for (const token of [undefined, outsider.token]) {
      expect(
        (await t.call("GET", `/packages/${alice.name}/generic/linked/1`, token ? { token } : {})).status,
      ).toBe(404);
      expect(
        (await registry(t, "GET", `/${alice.name}/generic/linked/1/l.bin`, token ? { token } : {})).status,
      ).toBe(404);
      const list = await t.call("GET", `/packages/${alice.name}`, token ? { token } : {});
      expect(list.json.map((p: { name: string }) => p.name)).not.toContain("linked");
      expect(list.headers.get("x-total-count")).toBe(String(list.json.length));
    }
    // The owner's quota list shows it, except to the owner's public-only token.
    const { secret: alicePublicOnly } = await t.services.tokens.create(
      await t.services.users.getByName(alice.name),
      "alice-po",
      ["public-only", "all"],
    );
    const usedNames = async (token: string) =>
      (await t.call("GET", "/user/quota/packages", { token })).json.map((p: { name: string }) => p.name);
    expect(await usedNames(alice.token)).toContain("linked");
    expect(await usedNames(alicePublicOnly)).not.toContain("linked");
    expect(
      (await t.call("POST", `/packages/${alice.name}/generic/linked/-/unlink`, { token: alice.token }))
        .status,
    ).toBe(204);
    expect(
      (await t.call("GET", `/packages/${alice.name}/generic/linked/1`, { token: outsider.token })).status,
    ).toBe(200);
    expect(
      (await t.call("DELETE", `/packages/${alice.name}/generic/linked/1`, { token: alice.token })).status,
    ).toBe(204);
  });

  it("keeps the ledger equal to the stored files under concurrent uploads and deletions", async () => {
    const base = `/${alice.name}/generic/busy/1.0.0`;
    const sizes = Array.from({ length: 12 }, (_, i) => 1000 + i);
    const blobsBefore = storedBlobs(t).length;
    const puts = await Promise.all([
      ...sizes.map((n, i) =>
        registry(t, "PUT", `${base}/f${i}`, { token: alice.token, body: randomBytes(n) }),
      ),
      ...Array.from({ length: 6 }, () =>
        registry(t, "PUT", `${base}/dup`, { token: alice.token, body: randomBytes(7) }),
      ),
    ]);
    expect(puts.slice(0, 12).map((r) => r.status)).toEqual(sizes.map(() => 201));
    expect(
      puts
        .slice(12)
        .map((r) => r.status)
        .sort(),
    ).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await usage(alice.id)).toBe(sizes.reduce((a, b) => a + b, 0) + 7);
    // The five refused `dup` uploads (other bytes each) left no file.
    expect(storedBlobs(t)).toHaveLength(blobsBefore + 13);
    // Deletions of files, twice each, racing with uploads of new ones.
    await Promise.all([
      ...[0, 1, 2, 3, 0, 1].map((i) => registry(t, "DELETE", `${base}/f${i}`, { token: alice.token })),
      ...[20, 21, 22].map((i) =>
        registry(t, "PUT", `${base}/f${i}`, { token: alice.token, body: randomBytes(10) }),
      ),
    ]);
    const files = await t.call("GET", `/packages/${alice.name}/generic/busy/1.0.0/files`);
    const stored = files.json.reduce((sum: number, f: { Size: number }) => sum + f.Size, 0);
    expect(await usage(alice.id)).toBe(stored);
    await expectNoDrift([alice.id]);
    expect(
      (await t.call("DELETE", `/packages/${alice.name}/generic/busy/1.0.0`, { token: alice.token })).status,
    ).toBe(204);
    expect(await usage(alice.id)).toBe(0);
  });

  it("refuses bad names (400), tokens without the package scope (401) and writes by others (401)", async () => {
    for (const path of ["/bad%20name/1/f", "/ok/1/%20f", "/ok/1/a%2Fb", "/ok/%201/f", "/%2B/1/f"]) {
      const res = await registry(t, "PUT", `/${alice.name}/generic${path}`, {
        token: alice.token,
        body: "x",
      });
      expect(res.status, path).toBe(400);
    }
    const { secret: readOnly } = await t.services.tokens.create(
      await t.services.users.getByName(alice.name),
      "ro",
      ["read:package"],
    );
    expect(
      (await registry(t, "PUT", `/${alice.name}/generic/p/1/f`, { token: readOnly, body: "x" })).status,
    ).toBe(401);
    expect(
      (await registry(t, "PUT", `/${alice.name}/generic/p/1/f`, { token: outsider.token, body: "x" })).status,
    ).toBe(401);
    expect((await registry(t, "PUT", `/${alice.name}/generic/p/1/f`, { body: "x" })).status).toBe(401);
    // Write access is judged before the names, as Forgejo's reqPackageAccess before its handler.
    for (const token of [undefined, outsider.token]) {
      const bad = await registry(t, "PUT", `/${alice.name}/generic/bad%20name/1/f`, {
        ...(token ? { token } : {}),
        body: "x",
      });
      expect(bad.status).toBe(401);
      expect(bad.headers.get("www-authenticate")).toContain("Basic");
    }
    expect((await registry(t, "GET", `/${alice.name}/nosuchtype/p/1/f`)).status).toBe(404);
    expect((await registry(t, "GET", `/no-such-owner/generic/p/1/f`)).status).toBe(404);
    expect(await usage(alice.id)).toBe(0);
  });
});

describe.each(DIALECTS)("package limits on %s", (dialect) => {
  let t: TestApp;
  let user: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect, {
      packages: { limitSize: { generic: 100 }, limitTotalOwnerSize: 150, limitTotalOwnerCount: 2 },
    });
    user = await t.user();
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());

  it("refuses a file over LIMIT_SIZE_GENERIC and an owner over LIMIT_TOTAL_OWNER_SIZE with 413, storing nothing", async () => {
    const tooBig = await registry(t, "PUT", `/${user.name}/generic/p/1/big`, {
      token: user.token,
      body: randomBytes(101),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.text).toContain("LIMIT_SIZE_GENERIC");
    expect((await t.call("GET", `/packages/${user.name}`)).json).toEqual([]);
    expect(storedBlobs(t)).toEqual([]);
    // Streamed without a declared length, the limit still holds.
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(randomBytes(30));
        controller.close();
      },
    });
    const streamed = await t.app.request(`http://kiln.test/api/packages/${user.name}/generic/p/1/big`, {
      method: "PUT",
      headers: { Authorization: `token ${user.token}` },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(storedBlobs(t)).toEqual([]);

    expect(
      (await registry(t, "PUT", `/${user.name}/generic/p/1/a`, { token: user.token, body: randomBytes(100) }))
        .status,
    ).toBe(201);
    const over = await registry(t, "PUT", `/${user.name}/generic/p/1/b`, {
      token: user.token,
      body: randomBytes(60),
    });
    expect(over.status).toBe(413);
    expect(over.text).toBe("maximum allowed package storage quota exceeded");
    // With a declared length (Content-Length), the owner's total is judged before a byte is stored.
    const before = storedBlobs(t).length;
    const oa = await t.services.packages.owner(
      { user: await t.services.users.getByName(user.name), scopes: null, publicOnly: false },
      user.name,
    );
    await expect(
      t.services.packageUploads.storeBlob(
        oa,
        "generic",
        (async function* () {
          yield randomBytes(60);
        })(),
        { declaredSize: 60 },
        async () => {
          throw new Error("not reached: refused before storing");
        },
      ),
    ).rejects.toMatchObject({ kind: "payload_too_large" });
    expect(storedBlobs(t)).toHaveLength(before);
    const overStreamed = await t.app.request(`http://kiln.test/api/packages/${user.name}/generic/p/1/c`, {
      method: "PUT",
      headers: { Authorization: `token ${user.token}` },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(randomBytes(60));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(overStreamed.status).toBe(413);
    // Refused once its bytes were stored (no length was declared): they are gone again.
    expect(storedBlobs(t)).toHaveLength(before);
    expect((await quotaUsage.getUsage(t.services.ctx.db, user.id)).packages).toBe(100);
    expect((await t.call("GET", `/packages/${user.name}/generic/p/1/files`)).json).toHaveLength(1);
  });

  it("refuses a version past LIMIT_TOTAL_OWNER_COUNT with 403, and holds site admins to no limit", async () => {
    expect(
      (await registry(t, "PUT", `/${user.name}/generic/q/1/a`, { token: user.token, body: "x" })).status,
    ).toBe(201);
    const third = await registry(t, "PUT", `/${user.name}/generic/q/2/a`, { token: user.token, body: "x" });
    expect(third.status).toBe(403);
    expect(third.text).toBe("maximum allowed package count exceeded");
    expect(
      (
        await registry(t, "PUT", `/${admin.name}/generic/q/1/a`, {
          token: admin.token,
          body: randomBytes(500),
        })
      ).status,
    ).toBe(201);
  });
});

describe.each(DIALECTS)("package uploads under [quota] ENFORCE on %s", (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(dialect, { quota: { enabled: true, enforce: true, defaultTotal: 50 } });
  });
  afterAll(() => t?.close());

  it("refuses uploads for an owner over quota with 413 before reading them, the package owner's quota, not the uploader's", async () => {
    const owner = await t.user();
    const data = randomBytes(100);
    expect(
      (await registry(t, "PUT", `/${owner.name}/generic/q/1/a`, { token: owner.token, body: data })).status,
    ).toBe(201);
    const refused = await registry(t, "PUT", `/${owner.name}/generic/q/1/b`, {
      token: owner.token,
      body: data,
    });
    expect(refused.status).toBe(413);
    expect(refused.text).toContain("quota exceeded");
    expect((await quotaUsage.getUsage(t.services.ctx.db, owner.id)).packages).toBe(100);
    expect((await t.call("GET", `/packages/${owner.name}/generic/q/1/files`)).json).toHaveLength(1);
    // An organization with nothing stored takes uploads from a member who is over quota.
    const org = `enforce-org-${randomBytes(3).toString("hex")}`;
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(201);
    expect(
      (await registry(t, "PUT", `/${org}/generic/q/1/a`, { token: owner.token, body: data })).status,
    ).toBe(201);
  });
});
