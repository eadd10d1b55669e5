import { createHash, randomBytes } from "node:crypto";
import { quotaUsage } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, readResult, type TestApp, type TestUser } from "./support.js";

/**
 * The package registries (`/api/packages/{owner}/{type}/…`) are outside the route table, so the
 * property test does not walk them: this test does, for the same hostile actors. Packages of a
 * private user, a private and a limited organization, and one of a public user linked to its
 * private repository must be invisible (404, their names nowhere in an answer) to whoever may not
 * see their owner or repository (npm search included), and no actor may change any of them (nothing stored, deleted or
 * retagged, usage unchanged); nothing answers 5xx.
 */

const ACTORS = ["anonymous", "outsider", "public-only", "collaborator", "restricted"] as const;
type Actor = (typeof ACTORS)[number];

interface Target {
  readonly owner: string;
  readonly ownerId: number;
  readonly generic: string;
  readonly npm: string;
  /** Actors who may see this package (read, never write). */
  readonly seenBy: ReadonlySet<Actor>;
}

function npmPublish(name: string, version: string, tarball: Buffer): string {
  return JSON.stringify({
    name,
    "dist-tags": { latest: version },
    versions: {
      [version]: {
        name,
        version,
        dist: { integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}` },
      },
    },
    _attachments: {
      [`${name}-${version}.tgz`]: { data: tarball.toString("base64"), length: tarball.length },
    },
  });
}

describe.each(DIALECTS)("the package registries against hostile actors on %s", (dialect) => {
  let t: TestApp;
  const targets: Target[] = [];
  const tokens: Partial<Record<Actor, string>> = {};
  let admin: TestUser;

  const send = async (method: string, path: string, token?: string, body?: string) => {
    const res = await t.app.request(`http://kiln.test/api/packages${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });
    return readResult(res);
  };

  /** What must not change: each target's files, dist-tags and usage, as its owner's admin sees them. */
  const state = async () => {
    const out: unknown[] = [];
    for (const target of targets) {
      const files = await t.call("GET", `/packages/${target.owner}/generic/${target.generic}/1.0.0/files`, {
        token: admin.token,
      });
      const tags = await send("GET", `/${target.owner}/npm/-/package/${target.npm}/dist-tags`, admin.token);
      const all = await t.call("GET", `/packages/${target.owner}?limit=50`, { token: admin.token });
      out.push({
        files: files.json,
        tags: tags.json,
        packages: all.json.map((p: { name: string; version: string }) => `${p.name}@${p.version}`).sort(),
        usage: (await quotaUsage.getUsage(t.services.ctx.db, target.ownerId)).packages,
      });
    }
    return JSON.stringify(out);
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    const secret = (kind: string) => `zz-secret-${kind}-${randomBytes(4).toString("hex")}`;
    admin = await t.user({ admin: true });
    const victim = await t.user();
    const privateUser = await t.user({ name: secret("puser"), visibility: "private" });
    const outsider = await t.user();
    const collaborator = await t.user();
    const restricted = await t.user();
    expect(
      (
        await t.call("PATCH", `/admin/users/${restricted.name}`, {
          token: admin.token,
          body: { restricted: true, login_name: restricted.name, source_id: 0 },
        })
      ).status,
    ).toBe(200);
    const { secret: publicOnly } = await t.services.tokens.create(
      await t.services.users.getByName(victim.name),
      "public-only",
      ["public-only", "all"],
    );
    Object.assign(tokens, {
      outsider: outsider.token,
      "public-only": publicOnly,
      collaborator: collaborator.token,
      restricted: restricted.token,
    });
    const privOrg = secret("porg");
    const limOrg = secret("lorg");
    for (const [org, visibility] of [
      [privOrg, "private"],
      [limOrg, "limited"],
    ] as const)
      expect(
        (await t.call("POST", "/orgs", { token: victim.token, body: { username: org, visibility } })).status,
      ).toBe(201);
    const closed = secret("vpriv");
    expect(
      (await t.call("POST", "/user/repos", { token: victim.token, body: { name: closed, private: true } }))
        .status,
    ).toBe(201);
    expect(
      (
        await t.call("PUT", `/repos/${victim.name}/${closed}/collaborators/${collaborator.name}`, {
          token: victim.token,
          body: { permission: "read" },
        })
      ).status,
    ).toBe(204);

    const idOf = async (name: string) => (await t.services.users.getByName(name)).id;
    const add = async (owner: string, token: string, seenBy: Actor[], link?: string) => {
      const generic = secret("gpkg");
      const npm = secret("npkg");
      const put = await send(
        "PUT",
        `/${owner}/generic/${generic}/1.0.0/${generic}.bin`,
        token,
        `bytes of ${generic}`,
      );
      expect(put.status).toBe(201);
      const published = await send(
        "PUT",
        `/${owner}/npm/${npm}`,
        token,
        npmPublish(npm, "1.0.0", randomBytes(99)),
      );
      expect(published.status).toBe(201);
      if (link)
        for (const name of [generic, npm]) {
          const type = name === generic ? "generic" : "npm";
          expect(
            (await t.call("POST", `/packages/${owner}/${type}/${name}/-/link/${link}`, { token })).status,
          ).toBe(201);
        }
      targets.push({ owner, ownerId: await idOf(owner), generic, npm, seenBy: new Set(seenBy) });
    };
    await add(privateUser.name, privateUser.token, []);
    await add(privOrg, victim.token, []);
    await add(limOrg, victim.token, ["outsider", "collaborator"]);
    await add(victim.name, victim.token, ["collaborator"], closed);
  });
  afterAll(() => t?.close());

  /** Sends every read and write to every target with `token`, judged as `actor` may see things. */
  async function walk(actor: Actor, token: string | undefined): Promise<string[]> {
    const failures: string[] = [];
    for (const target of targets) {
      const { owner, generic, npm } = target;
      const reads = [
        `/${owner}/generic/${generic}/1.0.0/${generic}.bin`,
        `/${owner}/npm/${npm}`,
        `/${owner}/npm/${npm}/-/1.0.0/${npm}-1.0.0.tgz`,
        `/${owner}/npm/${npm}/-/${npm}-1.0.0.tgz`,
        `/${owner}/npm/-/package/${npm}/dist-tags`,
      ];
      for (const path of reads) {
        const res = await send("GET", path, token);
        const seen = target.seenBy.has(actor);
        if (res.status >= 500) failures.push(`5xx: GET ${path} → ${res.status}`);
        if (!seen && res.status !== 404) failures.push(`not hidden: GET ${path} → ${res.status}`);
        if (seen && res.status !== 200) failures.push(`a reader is refused: GET ${path} → ${res.status}`);
      }
      // npm search: a hidden owner is 404; a visible owner's hidden package is simply not found.
      for (const query of [`text=${npm}`, "text=", `text=${npm}&size=50&from=0`]) {
        const path = `/${owner}/npm/-/v1/search?${query}`;
        const res = await send("GET", path, token);
        const seen = target.seenBy.has(actor);
        if (res.status >= 500) failures.push(`5xx: GET ${path} → ${res.status}`);
        if (seen && (res.status !== 200 || !res.text.includes(npm)))
          failures.push(`a reader does not find it: GET ${path} → ${res.status}`);
        if (!seen && res.status !== 404 && (res.status !== 200 || res.text.includes(npm)))
          failures.push(`not hidden: GET ${path} → ${res.status} ${res.text.slice(0, 200)}`);
      }
      const writes: [string, string, string?][] = [
        ["PUT", `/${owner}/generic/${generic}/1.0.0/other.bin`, "intruder"],
        ["PUT", `/${owner}/generic/${generic}/2.0.0/${generic}.bin`, "intruder"],
        ["DELETE", `/${owner}/generic/${generic}/1.0.0/${generic}.bin`],
        ["DELETE", `/${owner}/generic/${generic}/1.0.0`],
        ["PUT", `/${owner}/npm/${npm}`, npmPublish(npm, "2.0.0", randomBytes(10))],
        ["DELETE", `/${owner}/npm/${npm}/-/1.0.0/${npm}-1.0.0.tgz/-rev/1`],
        ["DELETE", `/${owner}/npm/${npm}/-rev/1`],
        ["PUT", `/${owner}/npm/-/package/${npm}/dist-tags/next`, '"1.0.0"'],
        ["DELETE", `/${owner}/npm/-/package/${npm}/dist-tags/latest`],
      ];
      for (const [method, path, body] of writes) {
        const res = await send(method, path, token, body);
        if (res.status >= 500) failures.push(`5xx: ${method} ${path} → ${res.status}`);
        if (![401, 403, 404].includes(res.status))
          failures.push(`write not refused: ${method} ${path} → ${res.status}`);
        if (!target.seenBy.has(actor) && res.status !== 404 && res.status !== 401)
          failures.push(`a hidden owner answered ${res.status}: ${method} ${path}`);
        for (const other of targets)
          for (const name of [other.generic, other.npm, other.owner])
            if (!other.seenBy.has(actor) && !path.includes(name) && res.text.includes(name))
              failures.push(`leak of ${name}: ${method} ${path} → ${res.text.slice(0, 200)}`);
      }
    }
    return failures;
  }

  it.each(ACTORS)("as %s: private packages are invisible and no package can be changed", async (actor) => {
    const before = await state();
    expect(await walk(actor, tokens[actor])).toEqual([]);
    expect(await state()).toBe(before);
  });

  // The walk must be able to fail: a site admin's requests, judged as if anonymous, see hidden
  // packages and change them (run last: it changes the fixture).
  it("detects hidden packages shown and writes allowed (self-check with a site admin's token)", async () => {
    const failures = await walk("anonymous", admin.token);
    const kinds = new Set(failures.map((f) => f.slice(0, f.indexOf(":"))));
    expect([...kinds]).toEqual(expect.arrayContaining(["not hidden", "write not refused"]));
  });
});
