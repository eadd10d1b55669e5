import { createHash } from "node:crypto";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, createRepo } from "./repos.js";
import { openTestApp, readResult, type TestApp, type TestUser } from "./support.js";

const LFS = "application/vnd.git-lfs+json";
const WRONG_TOKEN = "0123456789abcdef0123456789abcdef01234567";

/**
 * A wrong password or token is 401 wherever one is sent, as in Forgejo, and never read as an
 * anonymous request: on every route family that identifies its caller (the API, git and wiki git,
 * LFS, the package registries, attachments), each request below answers an anonymous caller or
 * the right credentials, and 401 to each wrong credential. Avatars and the OpenID discovery
 * document identify nobody (Forgejo serves them before any authentication), so credentials do
 * not change their answer.
 */
describe.each(DIALECTS)("bad credentials on every route family on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  const paths: Record<string, string> = {};

  const basic = (user: string, secret: string) =>
    `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
  const wrong = () => [
    `token ${WRONG_TOKEN}`,
    "Bearer wrong",
    `Bearer ${WRONG_TOKEN.slice(0, 8)}.e30.sig`,
    basic(alice.name, "wrong-password"),
    basic(alice.name, WRONG_TOKEN),
    basic(WRONG_TOKEN, "x-oauth-basic"),
    basic(WRONG_TOKEN, ""),
    basic("nobody-at-all", "password1"),
  ];
  const send = async (method: string, path: string, authorization?: string, body?: string) => {
    const headers: Record<string, string> = { Accept: LFS, "Content-Type": LFS };
    if (authorization) headers.Authorization = authorization;
    const res = await t.app.request(`http://kiln.test${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    return readResult(res);
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    const repo = await createRepo(t, alice, "pub");
    const token = { Authorization: `token ${alice.token}` };
    const wiki = await t.call("POST", `${repo.path}/wiki/new`, {
      token: alice.token,
      body: { title: "Home", content_base64: b64("# Home\n") },
    });
    expect(wiki.status).toBe(201);
    const data = Buffer.from("an LFS object\n");
    const oid = createHash("sha256").update(data).digest("hex");
    const lfs = await t.app.request(
      `http://kiln.test/${alice.name}/pub.git/info/lfs/objects/${oid}/${data.length}`,
      {
        method: "PUT",
        headers: token,
        body: data,
      },
    );
    expect(lfs.status).toBe(200);
    const pkg = await t.app.request(
      `http://kiln.test/api/packages/${alice.name}/generic/tool/1.0.0/tool.bin`,
      {
        method: "PUT",
        headers: token,
        body: Buffer.from("tool"),
      },
    );
    expect(pkg.status).toBe(201);
    const release = await t.call("POST", `${repo.path}/releases`, {
      token: alice.token,
      body: { tag_name: "v1", name: "v1" },
    });
    expect(release.status).toBe(201);
    const asset = await t.app.request(
      `http://kiln.test/api/v1${repo.path}/releases/${release.json.id}/assets?name=notes.txt`,
      { method: "POST", headers: { ...token, "Content-Type": "application/octet-stream" }, body: "notes" },
    );
    expect(asset.status).toBe(201);
    const me = await t.call("GET", "/user", { token: alice.token });
    Object.assign(paths, {
      oid,
      attachment: `/attachments/${((await asset.json()) as { uuid: string }).uuid}`,
      avatar: new URL(me.json.avatar_url as string).pathname,
    });
  });
  afterAll(() => t?.close());

  it("answers 401 to a wrong password or token where the caller is identified", async () => {
    const base = `/${alice.name}/pub`;
    const batch = JSON.stringify({ operation: "download", objects: [{ oid: paths.oid, size: 14 }] });
    const requests: { method: string; path: string; body?: string; anonymous: number }[] = [
      { method: "GET", path: `/api/v1/repos${base}`, anonymous: 200 },
      { method: "GET", path: "/api/v1/version", anonymous: 200 },
      { method: "GET", path: `/api/v1/repos${base}/raw/README.md`, anonymous: 200 },
      { method: "GET", path: `/api/v1/repos${base}/media/README.md`, anonymous: 200 },
      { method: "GET", path: `${base}.git/info/refs?service=git-upload-pack`, anonymous: 200 },
      { method: "GET", path: `${base}/info/refs?service=git-upload-pack`, anonymous: 200 },
      { method: "GET", path: `${base}.wiki.git/info/refs?service=git-upload-pack`, anonymous: 200 },
      { method: "POST", path: `${base}.git/info/lfs/objects/batch`, body: batch, anonymous: 200 },
      { method: "GET", path: `${base}.git/info/lfs/objects/${paths.oid}`, anonymous: 200 },
      // Listing locks needs a signed-in reader: the control is the owner's token.
      { method: "GET", path: `${base}.git/info/lfs/locks`, anonymous: 401 },
      {
        method: "GET",
        path: `/api/packages${base.replace("/pub", "")}/generic/tool/1.0.0/tool.bin`,
        anonymous: 200,
      },
      { method: "GET", path: `/api/packages/${alice.name}/npm/tool`, anonymous: 404 },
      { method: "GET", path: paths.attachment ?? "", anonymous: 200 },
    ];
    const failures: string[] = [];
    for (const r of requests) {
      const anonymous = await send(r.method, r.path, undefined, r.body);
      if (anonymous.status !== r.anonymous)
        failures.push(`anonymous ${r.method} ${r.path} → ${anonymous.status}`);
      const owner = await send(r.method, r.path, `token ${alice.token}`, r.body);
      if (owner.status >= 400 && owner.status !== 404)
        failures.push(`owner ${r.method} ${r.path} → ${owner.status}`);
      for (const credential of wrong()) {
        const res = await send(r.method, r.path, credential, r.body);
        if (res.status !== 401) failures.push(`${credential}: ${r.method} ${r.path} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("serves avatars and the discovery document whatever the credentials, as Forgejo", async () => {
    for (const path of [paths.avatar ?? "", "/.well-known/openid-configuration"]) {
      expect((await send("GET", path)).status).toBe(200);
      for (const credential of wrong()) expect((await send("GET", path, credential)).status).toBe(200);
    }
  });
});
