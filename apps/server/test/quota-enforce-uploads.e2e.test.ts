import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "@kiln/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch } from "./git-clients.js";
import {
  api,
  createAdmin,
  createUserWithToken,
  databaseEnv,
  E2E_DATABASES,
  kiln,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

/** A zip archive of one file with these bytes, made by the `zip` CLI. */
function zipOf(bytes: Buffer): Buffer {
  const dir = scratch("kiln-zip-");
  writeFileSync(join(dir, "data.bin"), bytes);
  execFileSync("zip", ["-q", "-j", "-0", join(dir, "a.zip"), join(dir, "data.bin")]);
  return readFileSync(join(dir, "a.zip"));
}

/**
 * `[quota] ENFORCE = true` against `kiln web` for every kind of upload: release assets,
 * releases, issue and comment attachments, generic packages and Actions artifacts. Each is taken
 * while the owner is within a small limit (a group and rule made with the admin API), then
 * refused with 413 once an upload has taken the owner past it, storing nothing and changing no
 * usage. Uploads count against the repository's (or package's) owner, never the uploader.
 */
describe.each(E2E_DATABASES)("quota enforcement of uploads with [quota] ENFORCE (%s)", (name) => {
  const { env, dispose } = databaseEnv(name, { KILN__QUOTA__ENFORCE: "true" });
  const work = tempWorkPath();
  let server: ServerProcess;
  let admin: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let releaseId: number;
  let commentId: number;

  const call = (user: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, { token: tokens[user] ?? admin, ...(body !== undefined ? { body } : {}) });
  /** A request with a raw or multipart body, as `user`, answered as status and JSON (or text). */
  const send = async (user: string, method: string, path: string, body: Buffer | FormData, root = false) => {
    const res = await fetch(`${server.url}${root ? "" : "/api/v1"}${path}`, {
      method,
      headers: {
        Authorization: `token ${tokens[user]}`,
        ...(Buffer.isBuffer(body) ? { "Content-Type": "application/octet-stream" } : {}),
      },
      body,
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
  const form = (file: string, bytes: Buffer) => {
    const f = new FormData();
    f.append("attachment", new Blob([bytes]), file);
    return f;
  };
  const used = async (owner: string) => {
    const res = await api(server.url, "GET", `/admin/users/${owner}/quota`, { token: admin });
    expect(res.status).toBe(200);
    return res.json.used.size;
  };
  /** Every byte counted in a `used.size` object (its leaves). */
  const total = (node: unknown): number =>
    typeof node === "number"
      ? node
      : Object.values(node as object).reduce((sum: number, v) => sum + total(v), 0);
  const limit = async (owner: string, rule: string, bytes: number, subjects: string[]) => {
    const made = await api(server.url, "POST", "/admin/quota/groups", {
      token: admin,
      body: { name: rule, rules: [{ name: rule, limit: bytes, subjects }] },
    });
    expect(made.status).toBe(201);
    const assigned = await api(server.url, "PUT", `/admin/quota/groups/${rule}/users/${owner}`, {
      token: admin,
    });
    expect(assigned.status).toBe(204);
  };
  const refused = (owner: string) => ({
    message: "quota exceeded",
    url: expect.any(String),
    user_id: ids[owner],
    username: owner,
  });
  /** Every upload of the issue, into carol's repository `ci` (or `owner`'s `repo`), as `user`. */
  const uploads = (user: string, tag: string, owner = "carol", repo = "ci") => ({
    releaseAsset: () =>
      send(
        user,
        "POST",
        `/repos/${owner}/${repo}/releases/${releaseId}/assets?name=${tag}.bin`,
        randomBytes(1024),
      ),
    issueAttachment: () =>
      send(
        user,
        "POST",
        `/repos/${owner}/${repo}/issues/1/assets`,
        form(`${tag}.txt`, Buffer.from(`log ${tag}\n`)),
      ),
    // A comment's attachments are its poster's (carol) to add.
    commentAttachment: () =>
      send(
        "carol",
        "POST",
        `/repos/${owner}/${repo}/issues/comments/${commentId}/assets`,
        form(`${tag}.txt`, Buffer.from(`comment log ${tag}\n`)),
      ),
    release: () => call(user, "POST", `/repos/${owner}/${repo}/releases`, { tag_name: `r-${tag}` }),
    // Packages belong to their owner: only carol (or labs' owner, carol) may write them.
    package: () =>
      send("carol", "PUT", `/api/packages/${owner}/generic/tool/${tag}/tool.bin`, randomBytes(1024), true),
    artifact: () =>
      send(
        user,
        "POST",
        `/repos/${owner}/${repo}/actions/runs/1/artifacts?name=${tag}`,
        zipOf(randomBytes(1024)),
      ),
  });

  beforeAll(async () => {
    server = await startServer(work, env);
    admin = (await createAdmin(server, work, "root", env)).token;
    for (const user of ["carol", "dave"]) tokens[user] = await createUserWithToken(server, work, env, user);
    expect((await call("carol", "POST", "/orgs", { username: "labs" })).status).toBe(201);
    for (const owner of ["carol", "dave", "labs"])
      ids[owner] = (await api(server.url, "GET", `/users/${owner}`, { token: admin })).json.id;
    expect((await call("carol", "POST", "/user/repos", { name: "ci", auto_init: true })).status).toBe(201);
    expect((await call("carol", "POST", "/orgs/labs/repos", { name: "tools", auto_init: true })).status).toBe(
      201,
    );
    // dave writes to carol's repository: what he uploads there counts against carol.
    const collab = await call("carol", "PUT", "/repos/carol/ci/collaborators/dave", { permission: "write" });
    expect(collab.status).toBe(204);
    for (const repo of ["carol/ci", "labs/tools"]) {
      expect((await call("carol", "POST", `/repos/${repo}/issues`, { title: "build log" })).status).toBe(201);
    }
    const comment = await call("carol", "POST", "/repos/carol/ci/issues/1/comments", { body: "see the log" });
    commentId = comment.json.id;
    const release = await call("carol", "POST", "/repos/carol/ci/releases", { tag_name: "v1" });
    expect(release.status).toBe(201);
    releaseId = release.json.id;
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGKILL");
      await server.exited;
    }
    await dispose();
  });

  it("takes every upload within quota, then refuses each with 413 once one took the owner past it", async () => {
    // carol may store 32 KiB more than she does now, everything counted.
    await limit("carol", "carol-small", total(await used("carol")) + 32 * 1024, ["size:all"]);
    const within = uploads("dave", "a");
    for (const [what, upload] of Object.entries(within)) {
      const res = await upload();
      expect([what, res.status]).toEqual([what, 201]);
    }
    // A 40 KiB artifact, taken because carol is still within quota before it.
    const big = await send(
      "dave",
      "POST",
      "/repos/carol/ci/actions/runs/2/artifacts?name=big",
      zipOf(randomBytes(40 * 1024)),
    );
    expect(big.status).toBe(201);
    expect((await call("carol", "GET", "/user/quota/check?subject=size:all")).json).toBe(false);
    const before = await used("carol");
    const lists = async () => ({
      assets: (await call("carol", "GET", `/repos/carol/ci/releases/${releaseId}/assets`)).json.length,
      issue: (await call("carol", "GET", "/repos/carol/ci/issues/1/assets")).json.length,
      comment: (await call("carol", "GET", `/repos/carol/ci/issues/comments/${commentId}/assets`)).json
        .length,
      releases: (await call("carol", "GET", "/repos/carol/ci/releases")).json.length,
      artifacts: (await call("carol", "GET", "/repos/carol/ci/actions/artifacts")).json.total_count,
      packages: (await call("carol", "GET", "/packages/carol")).json.length,
    });
    const stored = await lists();
    expect(stored).toEqual({ assets: 1, issue: 1, comment: 1, releases: 2, artifacts: 2, packages: 1 });

    // dave (within his own quota) and carol alike: the owner's quota decides.
    for (const user of ["dave", "carol"]) {
      const over = uploads(user, `b-${user}`);
      for (const [what, upload] of Object.entries(over)) {
        const res = await upload();
        if (what === "package") {
          // The package registry answers in its own format: plain text, as Forgejo's.
          expect([what, res.status, "text" in res ? res.text : undefined]).toEqual([
            what,
            413,
            expect.stringContaining("quota exceeded"),
          ]);
        } else {
          expect([what, res.status, res.json]).toEqual([what, 413, refused("carol")]);
        }
      }
    }
    // An npm publish is refused before its document is read (npm's JSON error body).
    const tarball = Buffer.from("not read").toString("base64");
    const npm = await send(
      "carol",
      "PUT",
      "/api/packages/carol/npm/tool",
      Buffer.from(
        JSON.stringify({
          name: "tool",
          versions: { "1.0.0": { name: "tool", version: "1.0.0" } },
          _attachments: { "tool-1.0.0.tgz": { data: tarball } },
        }),
      ),
      true,
    );
    expect([npm.status, npm.json]).toEqual([413, { error: "quota exceeded" }]);
    expect((await api(server.url, "GET", "/packages/carol/npm/tool/1.0.0", { token: admin })).status).toBe(
      404,
    );
    expect(await lists()).toEqual(stored);
    expect(await used("carol")).toEqual(before);
    expect(
      (await api(server.url, "GET", "/packages/carol/generic/tool/b-dave", { token: admin })).status,
    ).toBe(404);
  });

  it("counts an organization's uploads against the organization: refused for its owner too", async () => {
    await limit("labs", "labs-none", 0, ["size:assets:all"]);
    const before = await used("labs");
    const org = uploads("carol", "org", "labs", "tools");
    for (const [what, upload] of [
      ["issueAttachment", org.issueAttachment],
      ["artifact", org.artifact],
    ] as const) {
      const res = await upload();
      expect([what, res.status, res.json]).toEqual([what, 413, refused("labs")]);
    }
    const pkg = await org.package();
    expect([pkg.status, pkg.text]).toEqual([413, expect.stringContaining("quota exceeded")]);
    // The limit is on assets: a release (size:repos:all) is still taken.
    expect((await org.release()).status).toBe(201);
    expect((await call("carol", "GET", "/repos/labs/tools/actions/artifacts")).json.total_count).toBe(0);
    expect((await call("carol", "GET", "/repos/labs/tools/issues/1/assets")).json).toEqual([]);
    expect((await used("labs")).assets).toEqual(before.assets);
  });

  it("runs cleanup_actions now with `kiln admin cron run`, releasing expired artifacts", async () => {
    const listed = await kiln(["admin", "cron", "list", "-w", work], env);
    expect(listed.stdout).toMatch(/^cleanup_actions\s+@every 1h/m);
    expect(listed.stdout).toMatch(/^sweep_artifacts\s/m);
    const artifacts = (await call("carol", "GET", "/repos/carol/ci/actions/artifacts")).json;
    const big = artifacts.artifacts.find((a: { name: string }) => a.name === "big");
    const before = (await used("carol")).assets.artifacts as number;
    if (env.DATABASE_URL) {
      // On PostgreSQL the test can age an artifact while the server runs (PGlite is the server's alone).
      const db = await openDatabase({
        type: "postgres",
        url: env.DATABASE_URL,
        schema: env.KILN__DATABASE__SCHEMA ?? "",
      });
      try {
        await db
          .updateTable("actionArtifact")
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where("id", "=", big.id)
          .execute();
      } finally {
        await db.destroy();
      }
      expect((await call("carol", "GET", `/repos/carol/ci/actions/artifacts/${big.id}`)).status).toBe(404);
    }
    const run = await kiln(["admin", "cron", "run", "cleanup_actions", "-w", work], env);
    expect(run.code, run.stderr).toBe(0);
    if (env.DATABASE_URL) {
      expect(run.stdout).toContain(`removed 1 expired artifact (${big.size_in_bytes} bytes)`);
      expect((await used("carol")).assets.artifacts).toBe(before - big.size_in_bytes);
    } else {
      expect(run.stdout).toContain("removed 0 expired artifacts (0 bytes)");
      expect((await used("carol")).assets.artifacts).toBe(before);
    }
  });
});
