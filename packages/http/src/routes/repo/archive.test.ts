import { gunzipSync } from "node:zlib";
import { archiveProcesses } from "@kiln/git";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, refresh, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("repository archives on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let publicOnly: string;
  let repo: TestRepo;
  let secret: TestRepo;
  let head = "";

  /** A raw response, its body as bytes (archives are binary). */
  const fetchArchive = async (path: string, token?: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (token) headers.set("Authorization", `token ${token}`);
    const res = await t.app.request(`http://kiln.test/api/v1${path}`, { ...init, headers });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    reader = await t.user({ name: "reader" });
    outsider = await t.user({ name: "outsider" });
    const owner = await t.services.users.getByName("alice");
    publicOnly = (await t.services.tokens.create(owner, "public", ["public-only", "read:repository"])).secret;
    repo = await createRepo(t, alice, "Archives");
    head = await commitWithGit(repo.gitdir, "main", { "src/app.ts": "export {};\n" });
    await commitWithGit(repo.gitdir, "topic/one", { "topic.txt": "topic\n" });
    await refresh(t, repo);
    secret = await createRepo(t, alice, "secret", { private: true });
    const added = await t.call("PUT", `${secret.path}/collaborators/reader`, {
      token: alice.token,
      body: { permission: "read" },
    });
    expect(added.status).toBe(204);
  });
  afterAll(() => t?.close());

  it("streams a zip of a branch with Forgejo's headers, entries under the lower-cased repository name", async () => {
    const { res, bytes } = await fetchArchive(`${repo.path}/archive/main.zip`, alice.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Archives-main.zip"; filename*=UTF-8''Archives-main.zip`,
    );
    expect(res.headers.get("Access-Control-Expose-Headers")).toBe("Content-Disposition");
    expect(res.headers.get("ETag")).toBe(`"${head}-zip"`);
    expect(res.headers.get("Link")).toBe(
      `<http://kiln.test/api/v1/repos/alice/Archives/archive/${head}.zip?rev=${head}>; rel="immutable"`,
    );
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=300");
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
    expect(bytes.includes(Buffer.from("archives/src/app.ts"))).toBe(true);
    expect(bytes.includes(Buffer.from("archives/README.md"))).toBe(true);
  });

  it("names a tar.gz of a branch with slashes `<repo>-<ref with dashes>`, as Forgejo does", async () => {
    const { res, bytes } = await fetchArchive(`${repo.path}/archive/topic/one.tar.gz`, reader.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/gzip");
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Archives-topic-one.tar.gz"; filename*=UTF-8''Archives-topic-one.tar.gz`,
    );
    const tar = gunzipSync(bytes);
    expect(tar.includes(Buffer.from("archives/topic.txt"))).toBe(true);
    expect(tar.includes(Buffer.from("topic\n"))).toBe(true);
  });

  it("bundles a commit by sha, with the branch `bundle` and HEAD", async () => {
    const { res, bytes } = await fetchArchive(`${repo.path}/archive/${head}.bundle`, alice.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("Content-Disposition")).toContain(`filename="Archives-${head}.bundle"`);
    const header = bytes.subarray(0, bytes.indexOf("\n\n")).toString();
    expect(header.split("\n")).toEqual(["# v2 git bundle", `${head} refs/heads/bundle`, `${head} HEAD`]);
  });

  it("answers 304 to a matching If-None-Match and HEAD without starting git", async () => {
    const cached = await fetchArchive(`${repo.path}/archive/main.zip`, alice.token, {
      headers: { "If-None-Match": `W/"other", "${head}-zip"` },
    });
    expect(cached.res.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    const head_ = await fetchArchive(`${repo.path}/archive/main.tar.gz`, alice.token, { method: "HEAD" });
    expect(head_.res.status).toBe(200);
    expect(head_.res.headers.get("Content-Type")).toBe("application/gzip");
    expect(archiveProcesses().running).toBe(0);
  });

  it("answers Forgejo's 400 for an unknown format and 404 for an unknown ref", async () => {
    const format = await t.call("GET", `${repo.path}/archive/main.rar`, { token: alice.token });
    expect(format.status).toBe(400);
    expect(format.json.message).toBe("unknown format: main.rar");
    const unknown = await t.call("GET", `${repo.path}/archive/nope.zip`, { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe("unrecognized repository reference: nope");
    for (const name of [
      "..%2F..%2Fsecret.git%2Frefs%2Fheads%2Fmain.zip",
      "refs%2F..%2F..%2Fsecret.git%2FHEAD.zip",
      "main~1.zip",
      "--output=x.zip",
      ".zip",
    ]) {
      expect((await t.call("GET", `${repo.path}/archive/${name}`, { token: alice.token })).status).toBe(404);
    }
  });

  it("answers 404 for any ref of an empty repository", async () => {
    const empty = await createRepo(t, alice, "empty", { empty: true });
    const res = await t.call("GET", `${empty.path}/archive/main.zip`, { token: alice.token });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe("unrecognized repository reference: main");
  });

  it("hides a private repository's archive from outsiders, anonymous callers and public-only tokens", async () => {
    const path = `${secret.path}/archive/main.zip`;
    expect((await t.call("GET", path, { token: outsider.token })).status).toBe(404);
    expect((await t.call("GET", path)).status).toBe(404);
    expect((await t.call("GET", path, { token: publicOnly })).status).toBe(404);
    expect((await fetchArchive(path, reader.token)).res.status).toBe(200);
    expect((await fetchArchive(`${repo.path}/archive/main.zip`)).res.status).toBe(200);
    expect((await fetchArchive(`${repo.path}/archive/main.zip`, publicOnly)).res.status).toBe(200);
  });
});
