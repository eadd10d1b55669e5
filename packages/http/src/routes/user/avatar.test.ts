import { identiconPng } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

/** A 1×1 GIF. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** The start of a PNG claiming `width`×`height` pixels: all image-size needs to read them. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(13);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    len,
    Buffer.from("IHDR"),
    ihdr,
    Buffer.alloc(4),
  ]);
}

describe.each(DIALECTS)("avatars over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const png = identiconPng("some picture");

  /** GETs a URL outside /api/v1 (an avatar_url). */
  async function fetchUrl(url: string, headers: Record<string, string> = {}) {
    const res = await t.app.request(url, { headers });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    bob = await t.user();
  });
  afterAll(() => t?.close());

  it("serves a deterministic identicon at a user's avatar_url until one is uploaded", async () => {
    const me = await t.call("GET", "/user", { token: alice.token });
    const url: string = me.json.avatar_url;
    expect(url).toMatch(/^http:\/\/kiln\.test\/avatars\/[0-9a-f]{32}$/);
    const first = await fetchUrl(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("image/png");
    expect(first.bytes.subarray(1, 4).toString()).toBe("PNG");
    expect((await fetchUrl(url)).bytes.equals(first.bytes)).toBe(true);
    const other = (await t.call("GET", `/users/${bob.name}`)).json.avatar_url;
    expect(other).not.toBe(url);
    expect((await fetchUrl(other)).bytes.equals(first.bytes)).toBe(false);
    expect((await fetchUrl("http://kiln.test/avatars/not-a-hash")).status).toBe(404);
  });

  it("uploads a user's avatar, serves the same bytes with their type and ETag, and deletes it", async () => {
    const before = (await t.call("GET", "/user", { token: alice.token })).json.avatar_url;
    const up = await t.call("POST", "/user/avatar", {
      token: alice.token,
      body: { image: png.toString("base64") },
    });
    expect(up.status).toBe(204);
    const url = (await t.call("GET", "/user", { token: alice.token })).json.avatar_url;
    expect(url).not.toBe(before);
    expect((await t.call("GET", `/users/${alice.name}`)).json.avatar_url).toBe(url);
    const got = await fetchUrl(url);
    expect(got.status).toBe(200);
    expect(got.headers.get("Content-Type")).toBe("image/png");
    expect(got.headers.get("Cache-Control")).toBe("private, max-age=21600");
    expect(got.bytes.equals(png)).toBe(true);
    const etag = got.headers.get("ETag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetchUrl(url, { "If-None-Match": etag })).status).toBe(304);

    await t.call("POST", "/user/avatar", { token: alice.token, body: { image: GIF.toString("base64") } });
    const gifUrl = (await t.call("GET", "/user", { token: alice.token })).json.avatar_url;
    const gif = await fetchUrl(gifUrl);
    expect(gif.headers.get("Content-Type")).toBe("image/gif");
    expect(gif.bytes.equals(GIF)).toBe(true);
    // The replaced upload is gone: its URL shows an identicon now.
    expect((await fetchUrl(url)).bytes.equals(png)).toBe(false);

    expect((await t.call("DELETE", "/user/avatar", { token: alice.token })).status).toBe(204);
    expect((await t.call("GET", "/user", { token: alice.token })).json.avatar_url).toBe(before);
    const after = await fetchUrl(gifUrl);
    expect(after.headers.get("Content-Type")).toBe("image/png");
    expect((await t.call("DELETE", "/user/avatar", { token: alice.token })).status).toBe(204);
    expect((await t.call("POST", "/user/avatar", { body: { image: "" } })).status).toBe(401);
  });

  it("refuses bad images with Forgejo's messages: 400, 413 and 422", async () => {
    const post = (image: string) => t.call("POST", "/user/avatar", { token: bob.token, body: { image } });
    expect((await post("%%% not base64")).status).toBe(400);
    const text = await post(Buffer.from("hello, not an image").toString("base64"));
    expect(text.status).toBe(422);
    expect(text.json.message).toMatch(/^image\.DecodeConfig: image: unknown format/);
    const wide = await post(pngHeader(5000, 10).toString("base64"));
    expect(wide.status).toBe(422);
    expect(wide.json.message).toBe("image width is too large: 5000 > 4096");
    const tall = await post(pngHeader(10, 4097).toString("base64"));
    expect(tall.json.message).toBe("image height is too large: 4097 > 4096");
    const big = await post(Buffer.concat([png, Buffer.alloc(1024 * 1024)]).toString("base64"));
    expect(big.status).toBe(413);
    expect(big.json.message).toMatch(/exceeds the maximum size \(1024 KiB\)/);
    expect((await t.call("POST", "/user/avatar", { token: bob.token, body: {} })).status).toBe(422);
    const url = (await t.call("GET", "/user", { token: bob.token })).json.avatar_url;
    expect((await fetchUrl(url)).headers.get("Content-Type")).toBe("image/png");
  });

  it("lets organization owners set the organization's avatar", async () => {
    const org = (await t.call("POST", "/orgs", { token: alice.token, body: { username: `org-${alice.id}` } }))
      .json;
    const body = { image: GIF.toString("base64") };
    expect((await t.call("POST", `/orgs/${org.username}/avatar`, { token: bob.token, body })).status).toBe(
      403,
    );
    expect((await t.call("POST", `/orgs/${org.username}/avatar`, { token: alice.token, body })).status).toBe(
      204,
    );
    const url = (await t.call("GET", `/orgs/${org.username}`)).json.avatar_url;
    expect(url).not.toBe(org.avatar_url);
    expect((await fetchUrl(url)).bytes.equals(GIF)).toBe(true);
    expect((await t.call("DELETE", `/orgs/${org.username}/avatar`, { token: alice.token })).status).toBe(204);
    expect((await t.call("GET", `/orgs/${org.username}`)).json.avatar_url).toBe(org.avatar_url);
  });

  it("lets repository admins set a repository's avatar, served under /repo-avatars/", async () => {
    const repo = (await t.call("POST", "/user/repos", { token: alice.token, body: { name: "pictured" } }))
      .json;
    // Forgejo's default [picture] REPOSITORY_AVATAR_FALLBACK (none): no avatar, no URL.
    expect(repo.avatar_url).toBe("");
    const path = `/repos/${alice.name}/pictured/avatar`;
    const body = { image: png.toString("base64") };
    expect((await t.call("POST", path, { token: bob.token, body })).status).toBe(403);
    expect((await t.call("POST", path, { token: alice.token, body })).status).toBe(204);
    const url: string = (await t.call("GET", `/repos/${alice.name}/pictured`)).json.avatar_url;
    expect(url).not.toBe(repo.avatar_url);
    expect((await fetchUrl(url)).bytes.equals(png)).toBe(true);
    // Repository avatars are not served under /avatars/ (Forgejo keeps them apart).
    expect((await fetchUrl(url.replace("/repo-avatars/", "/avatars/"))).bytes.equals(png)).toBe(false);
    expect((await t.call("DELETE", path, { token: alice.token })).status).toBe(204);
    expect((await t.call("GET", `/repos/${alice.name}/pictured`)).json.avatar_url).toBe("");
  });

  it("registers the avatars' blob kind, so the sweep removes files no row refers to", async () => {
    const kind = t.services.cron.blobKinds().find((k) => k.name === "avatars");
    expect(kind).toBeDefined();
    expect(t.services.cron.has("sweep_avatars")).toBe(true);
  });
});

describe("a repository without an avatar follows [picture] REPOSITORY_AVATAR_FALLBACK", () => {
  const cases = [
    [{ repositoryAvatarFallback: "random" }, /^http:\/\/kiln\.test\/repo-avatars\/[0-9a-f]{32}$/],
    [{ repositoryAvatarFallback: "image" }, /^http:\/\/kiln\.test\/assets\/img\/repo_default\.png$/],
    [
      { repositoryAvatarFallback: "image", repositoryAvatarFallbackImage: "https://cdn.example/repo.png" },
      /^https:\/\/cdn\.example\/repo\.png$/,
    ],
  ] as const;
  it.each(cases)("%o gives %s, before an upload and after its deletion", async (picture, expected) => {
    const t = await openTestApp("pglite", { picture });
    try {
      const user = await t.user();
      const made = await t.call("POST", "/user/repos", { token: user.token, body: { name: "pictured" } });
      expect(made.json.avatar_url).toMatch(expected);
      const path = `/repos/${user.name}/pictured/avatar`;
      const image = identiconPng("another picture").toString("base64");
      expect((await t.call("POST", path, { token: user.token, body: { image } })).status).toBe(204);
      const uploaded = (await t.call("GET", `/repos/${user.name}/pictured`)).json.avatar_url;
      expect(uploaded).toMatch(/^http:\/\/kiln\.test\/repo-avatars\/[0-9a-f]+$/);
      expect(uploaded).not.toBe(made.json.avatar_url);
      expect((await t.call("DELETE", path, { token: user.token })).status).toBe(204);
      expect((await t.call("GET", `/repos/${user.name}/pictured`)).json.avatar_url).toBe(
        made.json.avatar_url,
      );
    } finally {
      await t.close();
    }
  });
});

describe("the avatar body limit follows [picture] AVATAR_MAX_FILE_SIZE", () => {
  it("takes a 7 MiB picture when the setting allows 10 MiB, and refuses a body beyond it", async () => {
    const t = await openTestApp("pglite", { picture: { avatarMaxFileSize: 10 * 1024 * 1024 } });
    try {
      const user = await t.user();
      const post = (image: string) => t.call("POST", "/user/avatar", { token: user.token, body: { image } });
      const png = identiconPng("large picture");
      const large = await post(Buffer.concat([png, Buffer.alloc(7 * 1024 * 1024)]).toString("base64"));
      expect(large.status).toBe(204);
      const tooLarge = await post("A".repeat(14 * 1024 * 1024));
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.json.message).toMatch(/body/i);
    } finally {
      await t.close();
    }
  });
});
