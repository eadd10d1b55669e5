import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { quotaRecount, quotaUsage } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, readResult, type TestApp, type TestUser } from "../../test/support.js";

/** The document `npm publish` sends for one version, its tarball inline in base64. */
/** Every file under the packages' blob store (unfinished uploads included). */
function storedFiles(t: TestApp): string[] {
  try {
    return readdirSync(t.settings.packages.path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

function publishDocument(
  name: string,
  version: string,
  tarball: Buffer,
  tags = ["latest"],
  integrity?: string,
) {
  const sha512 = createHash("sha512").update(tarball).digest("base64");
  const bare = name.split("/").pop();
  return JSON.stringify({
    _id: name,
    name,
    description: "a test package",
    "dist-tags": Object.fromEntries(tags.map((t) => [t, version])),
    versions: {
      [version]: {
        name,
        version,
        description: "a test package",
        dependencies: { leftpad: "^1.0.0" },
        readme: "# readme",
        dist: {
          integrity: integrity ?? `sha512-${sha512}`,
          shasum: createHash("sha1").update(tarball).digest("hex"),
        },
      },
    },
    _attachments: {
      [`${bare}-${version}.tgz`]: {
        content_type: "application/octet-stream",
        data: tarball.toString("base64"),
        length: tarball.length,
      },
    },
  });
}

describe.each(DIALECTS)("the npm registry on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let outsider: TestUser;

  const npm = async (method: string, path: string, opts: { token?: string; body?: string } = {}) => {
    const res = await t.app.request(`http://kiln.test/api/packages${path}`, {
      method,
      headers: {
        ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(opts.body !== undefined ? { body: opts.body } : {}),
    });
    const bytes = Buffer.from(await res.clone().arrayBuffer());
    return { ...(await readResult(res)), bytes };
  };
  const usage = async (id: number) => (await quotaUsage.getUsage(t.services.ctx.db, id)).packages;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    outsider = await t.user();
  });
  afterAll(() => t?.close());

  it("publishes, serves the package document and tarballs, moves dist-tags and unpublishes", async () => {
    const name = "@kiln/widget";
    const base = `/${alice.name}/npm`;
    const one = randomBytes(30_000);
    const two = randomBytes(20_000);
    expect(
      (
        await npm("PUT", `${base}/@kiln%2fwidget`, {
          token: alice.token,
          body: publishDocument(name, "1.0.0", one),
        })
      ).status,
    ).toBe(201);
    expect(await usage(alice.id)).toBe(one.length);
    const again = await npm("PUT", `${base}/@kiln%2fwidget`, {
      token: alice.token,
      body: publishDocument(name, "1.0.0", two),
    });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: "package version already exists" });
    expect(
      (
        await npm("PUT", `${base}/@kiln%2fwidget`, {
          token: alice.token,
          body: publishDocument(name, "1.1.0", two, ["beta"]),
        })
      ).status,
    ).toBe(201);
    expect(await usage(alice.id)).toBe(one.length + two.length);

    for (const path of [`${base}/@kiln%2fwidget`, `${base}/@kiln/widget`, `${base}/@kiln%2Fwidget`]) {
      const doc = await npm("GET", path);
      expect(doc.status, path).toBe(200);
      expect(doc.json.name).toBe(name);
      expect(doc.json["dist-tags"]).toEqual({ latest: "1.0.0", beta: "1.1.0" });
      expect(Object.keys(doc.json.versions)).toEqual(["1.0.0", "1.1.0"]);
    }
    const doc = (await npm("GET", `${base}/@kiln%2fwidget`)).json;
    const v1 = doc.versions["1.0.0"];
    expect(v1).toMatchObject({
      _id: "@kiln/widget@1.0.0",
      version: "1.0.0",
      dependencies: { leftpad: "^1.0.0" },
      dist: {
        shasum: createHash("sha1").update(one).digest("hex"),
        integrity: `sha512-${createHash("sha512").update(one).digest("base64")}`,
        tarball: `http://kiln.test/api/packages/${alice.name}/npm/%40kiln%2Fwidget/-/1.0.0/widget-1.0.0.tgz`,
      },
    });
    const tarball = await npm("GET", new URL(v1.dist.tarball).pathname.replace("/api/packages", ""));
    expect(tarball.status).toBe(200);
    expect(tarball.bytes.equals(one)).toBe(true);
    expect((await npm("GET", `${base}/@kiln/widget/-/widget-1.1.0.tgz`)).bytes.equals(two)).toBe(true);

    // dist-tags: list, move, delete; a tag that reads as a version is refused.
    const tags = `${base}/-/package/@kiln%2fwidget/dist-tags`;
    expect((await npm("GET", tags)).json).toEqual({ latest: "1.0.0", beta: "1.1.0" });
    expect((await npm("PUT", `${tags}/latest`, { token: alice.token, body: '"1.1.0"' })).status).toBe(200);
    expect((await npm("PUT", `${tags}/1.0`, { token: alice.token, body: '"1.1.0"' })).status).toBe(400);
    expect((await npm("PUT", `${tags}/latest`, { token: outsider.token, body: '"1.0.0"' })).status).toBe(401);
    expect((await npm("DELETE", `${tags}/beta`, { token: alice.token })).status).toBe(200);
    expect((await npm("GET", tags)).json).toEqual({ latest: "1.1.0" });

    // Unpublishing a version, then the package, releases their bytes.
    expect(
      (await npm("DELETE", `${base}/@kiln%2fwidget/-/1.0.0/widget-1.0.0.tgz/-rev/1`, { token: alice.token }))
        .status,
    ).toBe(200);
    expect(await usage(alice.id)).toBe(two.length);
    // `npm unpublish @kiln/widget@1.1.0` resolves the tarball URL's path against the registry URL,
    // repeating the registry's path (npm/cli#4253), and takes a 404 for success: Kiln serves it.
    const tarballPath = new URL(doc.versions["1.1.0"].dist.tarball).pathname.slice(1);
    const unpublish = `${base}/${tarballPath}/-rev/undefined`;
    expect(unpublish).toContain(`/npm/api/packages/${alice.name}/npm/%40kiln%2Fwidget/-/1.1.0/`);
    expect((await npm("DELETE", unpublish, { token: outsider.token })).status).toBe(401);
    expect((await npm("DELETE", unpublish, { token: alice.token })).status).toBe(200);
    // It was the last version: the package is gone with it.
    expect((await npm("GET", `${base}/@kiln%2fwidget`)).status).toBe(404);
    expect(await usage(alice.id)).toBe(0);
    expect(
      (
        await npm("PUT", `${base}/@kiln%2fwidget`, {
          token: alice.token,
          body: publishDocument(name, "1.1.0", two, ["beta"]),
        })
      ).status,
    ).toBe(201);
    expect(await usage(alice.id)).toBe(two.length);
    expect((await npm("DELETE", `${base}/@kiln%2fwidget/-rev/1`, { token: outsider.token })).status).toBe(
      401,
    );
    expect((await npm("DELETE", `${base}/@kiln%2fwidget/-rev/1`, { token: alice.token })).status).toBe(200);
    expect(await usage(alice.id)).toBe(0);
    expect((await npm("GET", `${base}/@kiln%2fwidget`)).status).toBe(404);
    const recount = await quotaRecount.recountUsage(t.services.ctx.db, [alice.id]);
    expect(recount.get(alice.id)?.packages).toBe(0);
  });

  it("refuses a wrong integrity, a name that is not the path's, invalid names and writes by others", async () => {
    const base = `/${alice.name}/npm`;
    const data = randomBytes(100);
    const filesBefore = storedFiles(t);
    const wrong = await npm("PUT", `${base}/plain`, {
      token: alice.token,
      body: publishDocument("plain", "1.0.0", data, ["latest"], "sha512-AAAA"),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: "failed to validate integrity" });
    expect(
      (
        await npm("PUT", `${base}/other`, {
          token: alice.token,
          body: publishDocument("plain", "1.0.0", data),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await npm("PUT", `${base}/Upper`, {
          token: alice.token,
          body: publishDocument("Upper", "1.0.0", data),
        })
      ).status,
    ).toBe(400);
    expect(
      (await npm("PUT", `${base}/plain`, { token: alice.token, body: publishDocument("plain", "one", data) }))
        .status,
    ).toBe(400);
    expect((await npm("PUT", `${base}/plain`, { token: alice.token, body: "{" })).status).toBe(400);
    const refused = await npm("PUT", `${base}/plain`, {
      token: outsider.token,
      body: publishDocument("plain", "1.0.0", data),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("Basic");
    expect(
      (await npm("PUT", `${base}/plain`, { body: publishDocument("plain", "1.0.0", data) })).status,
    ).toBe(401);
    expect(await usage(alice.id)).toBe(0);
    // Each refusal came after the tarball was stored: nothing of it is left.
    expect(storedFiles(t)).toEqual(filesBefore);
    expect((await t.call("GET", `/packages/${alice.name}?type=npm`)).json).toEqual([]);
  });

  it("searches an owner's packages as Forgejo (newest version each, bounded, hidden packages left out)", async () => {
    const owner = await t.user();
    const base = `/${owner.name}/npm`;
    const publish = async (name: string, version: string) => {
      const res = await npm("PUT", `${base}/${name.replace("/", "%2f")}`, {
        token: owner.token,
        body: publishDocument(name, version, randomBytes(1000)),
      });
      expect(res.status, `${name}@${version}`).toBe(201);
    };
    await publish("search-one", "1.0.0");
    await publish("search-one", "1.2.0");
    await publish("@team/search-two", "0.1.0");
    await publish("other-thing", "3.0.0");
    const search = (query: string, token?: string) =>
      npm("GET", `${base}/-/v1/search?${query}`, token ? { token } : {});

    const found = await search("text=search&size=20&from=0&quality=0.65&popularity=0.98&maintenance=0.5");
    expect(found.status).toBe(200);
    expect(found.json.total).toBe(2);
    expect(found.json.objects).toEqual([
      {
        package: {
          scope: "@team",
          name: "search-two",
          version: "0.1.0",
          date: expect.any(String),
          description: "a test package",
          author: { name: "" },
          publisher: { name: owner.name },
          maintainers: [],
          links: { npm: `http://kiln.test/api/packages/${owner.name}/npm` },
        },
      },
      expect.objectContaining({
        package: expect.objectContaining({ scope: "unscoped", name: "search-one", version: "1.2.0" }),
      }),
    ]);
    // Everything without text, newest first; `size` and `from` page it.
    const all = await search("text=");
    expect(all.json.objects.map((o: { package: { name: string } }) => o.package.name)).toEqual([
      "other-thing",
      "search-two",
      "search-one",
    ]);
    const second = await search("size=1&from=1");
    expect(second.json).toMatchObject({ total: 3, objects: [{ package: { name: "search-two" } }] });
    // Bounds: size at most MAX_RESPONSE_ITEMS, a far `from` is an empty page, junk numbers count as 0.
    expect((await search("size=2")).json.objects).toHaveLength(2);
    expect((await search("size=100000")).json.objects).toHaveLength(3);
    expect((await search("from=99999999999999999999")).json).toEqual({ objects: [], total: 3 });
    expect((await search("from=20000&size=5")).json).toEqual({ objects: [], total: 3 });
    expect((await search("size=x&from=-4")).json.objects).toHaveLength(3);
    expect((await search(`text=${"a".repeat(300)}`)).json).toEqual({ objects: [], total: 0 });
    // `%` and `_` in the text are literal, not patterns.
    expect((await search("text=%25")).json.total).toBe(0);
    expect((await search("text=_")).json.total).toBe(0);

    // A package linked to a private repository shows only to those who may see the repository.
    const repo = await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: "secret-pkg", private: true },
    });
    expect(repo.status).toBe(201);
    const linked = await t.call("POST", `/packages/${owner.name}/npm/other-thing/-/link/secret-pkg`, {
      token: owner.token,
    });
    expect(linked.status).toBe(201);
    expect((await search("text=other", owner.token)).json.total).toBe(1);
    for (const token of [outsider.token, undefined]) {
      const hidden = await search("text=other", token);
      expect(hidden.status).toBe(200);
      expect(hidden.json).toEqual({ objects: [], total: 0 });
      expect((await search("", token)).json.total).toBe(2);
    }
  });

  it("hides a private owner's npm packages from others", async () => {
    const hidden = await t.user({ visibility: "private" });
    const data = randomBytes(64);
    expect(
      (
        await npm("PUT", `/${hidden.name}/npm/secret`, {
          token: hidden.token,
          body: publishDocument("secret", "1.0.0", data),
        })
      ).status,
    ).toBe(201);
    for (const token of [undefined, outsider.token]) {
      const opts = token ? { token } : {};
      expect((await npm("GET", `/${hidden.name}/npm/secret`, opts)).status).toBe(404);
      expect((await npm("GET", `/${hidden.name}/npm/secret/-/1.0.0/secret-1.0.0.tgz`, opts)).status).toBe(
        404,
      );
      expect((await npm("GET", `/${hidden.name}/npm/-/package/secret/dist-tags`, opts)).status).toBe(404);
    }
    expect((await npm("GET", `/${hidden.name}/npm/secret`, { token: hidden.token })).json.name).toBe(
      "secret",
    );
  });
});

describe("npm search is bounded by [api] MAX_RESPONSE_ITEMS", () => {
  it("answers at most MAX_RESPONSE_ITEMS packages whatever `size` asks", async () => {
    const t = await openTestApp("pglite", { api: { maxResponseItems: 2 } });
    try {
      const owner = await t.user();
      for (const name of ["a-pkg", "b-pkg", "c-pkg"]) {
        const res = await t.app.request(`http://kiln.test/api/packages/${owner.name}/npm/${name}`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${owner.token}`, "Content-Type": "application/json" },
          body: publishDocument(name, "1.0.0", randomBytes(100)),
        });
        expect(res.status).toBe(201);
      }
      const res = await t.app.request(`http://kiln.test/api/packages/${owner.name}/npm/-/v1/search?size=500`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { objects: unknown[]; total: number };
      expect(body.total).toBe(3);
      expect(body.objects).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
});
