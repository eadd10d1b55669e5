import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "../../test/attachments.js";
import { openTestApp, type TestApp, type TestUser } from "../../test/support.js";

/**
 * The download links outside `/api/`: a release asset's named `browser_download_url` (and the
 * `attachments/{uuid}` fallback when the release's names repeat), and source archives at their
 * web path. Each opens for an API token and for a browser's session cookie, and is 404 for
 * whoever may not read the repository.
 */
describe.each(DIALECTS)("download links on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let cookie: string;
  const repo = "dl-repo";
  const base = () => `/repos/${owner.name}/${repo}`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    t.app.request(`http://kiln.test${path}`, { headers });
  const upload = (releaseId: number, name: string, text: string) =>
    t.call("POST", `${base()}/releases/${releaseId}/assets?name=${name}`, {
      token: owner.token,
      rawBody: text,
      headers: { "Content-Type": "application/octet-stream" },
    });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    outsider = await t.user();
    await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: repo, auto_init: true, private: true },
    });
    const user = await t.services.users.findByName(owner.name);
    cookie = `${t.settings.session.cookieName}=${await t.services.webSessions.start(user!, false, {})}`;
  });
  afterAll(() => t?.close());

  it("names a release's assets by tag and name when the names are unique, and serves them there", async () => {
    const rel = (
      await t.call("POST", `${base()}/releases`, { token: owner.token, body: { tag_name: "v1/rc+1" } })
    ).json;
    expect((await upload(rel.id, "tool.tar.gz", "tool bytes")).status).toBe(201);
    expect((await upload(rel.id, "notes.txt", "notes")).status).toBe(201);
    const named = `http://kiln.test/${owner.name}/${repo}/releases/download/v1%2Frc+1/tool.tar.gz`;
    const got = (await t.call("GET", `${base()}/releases/${rel.id}`, { token: owner.token })).json;
    expect(got.assets.map((a: { browser_download_url: string }) => a.browser_download_url)).toContain(named);
    const listed = (await t.call("GET", `${base()}/releases/${rel.id}/assets`, { token: owner.token })).json;
    expect(listed.map((a: { browser_download_url: string }) => a.browser_download_url)).toContain(named);

    const path = new URL(named).pathname;
    for (const headers of [{ Authorization: `token ${owner.token}` }, { cookie }] as Record<
      string,
      string
    >[]) {
      const res = await get(path, headers);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("tool bytes");
      expect(res.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''tool.tar.gz");
    }
    expect((await get(path, { Authorization: `token ${outsider.token}` })).status).toBe(404);
    expect((await get(path)).status).toBe(404);
    expect(
      (await get(`/${owner.name}/${repo}/releases/download/v1%2Frc+1/none.zip`, { cookie })).status,
    ).toBe(404);
    expect((await get(`/${owner.name}/${repo}/releases/download/latest/notes.txt`, { cookie })).status).toBe(
      200,
    );
  });

  it("falls back to attachments/{uuid} when two assets share a name, which a session opens too", async () => {
    const rel = (await t.call("POST", `${base()}/releases`, { token: owner.token, body: { tag_name: "v2" } }))
      .json;
    await upload(rel.id, "same.bin", "first");
    await upload(rel.id, "same.bin", "second");
    const got = (await t.call("GET", `${base()}/releases/${rel.id}`, { token: owner.token })).json;
    const urls = got.assets.map((a: { browser_download_url: string; uuid: string }) => [
      a.browser_download_url,
      a.uuid,
    ]);
    for (const [url, uuid] of urls) expect(url).toBe(`http://kiln.test/attachments/${uuid}`);
    const res = await get(new URL(urls[0][0]).pathname, { cookie });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("first");
    expect((await get(new URL(urls[0][0]).pathname)).status).toBe(404);
  });

  it("serves source archives at the web path, for a token or a session, 404 for others", async () => {
    const path = `/${owner.name}/${repo}/archive/main.tar.gz`;
    for (const headers of [{ Authorization: `token ${owner.token}` }, { cookie }] as Record<
      string,
      string
    >[]) {
      const res = await get(path, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.headers.get("content-disposition")).toContain(`filename="${repo}-main.tar.gz"`);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(
      (await get(`/${owner.name}/${repo}/archive/main.zip`, { cookie })).headers.get("content-type"),
    ).toBe("application/zip");
    expect((await get(path, { Authorization: `token ${outsider.token}` })).status).toBe(404);
    expect((await get(path)).status).toBe(404);
    expect((await get(`/${owner.name}/${repo}/archive/nope.zip`, { cookie })).status).toBe(404);
  });

  it("reads a release's asset with a token's repository scope and an issue's attachment with its issue scope", async () => {
    const user = await t.services.users.findByName(owner.name);
    const tokenWith = async (scope: string) =>
      (await t.services.tokens.create(user!, `only-${scope}-${Math.random()}`, [scope])).secret;
    const [issueOnly, repoOnly] = [await tokenWith("read:issue"), await tokenWith("read:repository")];
    const rel = (await t.call("POST", `${base()}/releases`, { token: owner.token, body: { tag_name: "v3" } }))
      .json;
    const asset = (await upload(rel.id, "asset.txt", "ASSET")).json;
    const issue = (await t.call("POST", `${base()}/issues`, { token: owner.token, body: { title: "files" } }))
      .json;
    const form = multipart([
      { name: "attachment", filename: "note.txt", data: new TextEncoder().encode("NOTE") },
    ]);
    const attached = (await (
      await t.app.request(`http://kiln.test/api/v1${base()}/issues/${issue.number}/assets`, {
        method: "POST",
        headers: { Authorization: `token ${owner.token}`, "Content-Type": form.contentType },
        body: form.body,
      })
    ).json()) as { uuid: string };
    expect(attached.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const open = (uuid: string, token: string) =>
      get(`/attachments/${uuid}`, { Authorization: `token ${token}` });
    expect((await open(asset.uuid, repoOnly)).status).toBe(200);
    expect((await open(asset.uuid, issueOnly)).status).toBe(404);
    expect((await open(attached.uuid, issueOnly)).status).toBe(200);
    expect((await open(attached.uuid, repoOnly)).status).toBe(404);
    // The named asset link and the archive need the repository scope.
    const named = `/${owner.name}/${repo}/releases/download/v3/asset.txt`;
    expect((await get(named, { Authorization: `token ${issueOnly}` })).status).toBe(404);
    expect((await get(named, { Authorization: `token ${repoOnly}` })).status).toBe(200);
  });
});
