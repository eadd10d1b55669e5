import { existsSync, readdirSync } from "node:fs";
import { actions } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, multipart, send, sha256, uploadForm } from "../../../test/attachments.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

/**
 * Releases and their assets through the API over a real socket, on both databases: Forgejo's
 * shapes and statuses, byte-exact uploads (multipart and raw) and downloads at
 * `browser_download_url`, and the quota usage of the repository's owner after every upload and
 * deletion (the uploader is not the owner), for a user's and an organization's repository.
 */
describe.each(DIALECTS)("releases and release assets on %s", (dialect) => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  const repo = "rel-repo";

  const usage = async (path = "/user/quota", who: TestUser = owner) =>
    (await t.call("GET", path, { token: who.token })).json.used.size.assets.attachments as {
      issues: number;
      releases: number;
    };

  beforeAll(async () => {
    t = await openTestApp(dialect, { server: { rootUrl: "http://kiln.test/" } });
    server = await listen(t.app);
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    expect(
      (
        await t.call("POST", "/user/repos", {
          token: owner.token,
          body: { name: repo, auto_init: true, private: true },
        })
      ).status,
    ).toBe(201);
    for (const [who, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const)
      expect(
        (
          await t.call("PUT", `/repos/${owner.name}/${repo}/collaborators/${who.name}`, {
            token: owner.token,
            body: { permission },
          })
        ).status,
      ).toBe(204);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const base = () => `/repos/${owner.name}/${repo}`;

  it("creates a release and its tag from target_commitish, and finds it by id, tag and as the latest", async () => {
    const created = await t.call("POST", `${base()}/releases`, {
      token: writer.token,
      body: { tag_name: "v1.0", target_commitish: "main", name: "First", body: "notes" },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      tag_name: "v1.0",
      target_commitish: "main",
      name: "First",
      body: "notes",
      draft: false,
      prerelease: false,
      assets: [],
      author: { login: writer.name },
      url: `http://kiln.test/api/v1${base()}/releases/${created.json.id}`,
      html_url: `http://kiln.test/${owner.name}/${repo}/releases/tag/v1.0`,
      tarball_url: `http://kiln.test/${owner.name}/${repo}/archive/v1.0.tar.gz`,
      upload_url: `http://kiln.test/api/v1${base()}/releases/${created.json.id}/assets`,
    });
    const tag = await t.call("GET", `${base()}/tags/v1.0`, { token: owner.token });
    expect(tag.status).toBe(200);
    const branch = await t.call("GET", `${base()}/branches/main`, { token: owner.token });
    expect(tag.json.commit.sha).toBe(branch.json.commit.id);
    for (const path of [`/releases/${created.json.id}`, "/releases/tags/v1.0", "/releases/latest"])
      expect((await t.call("GET", `${base()}${path}`, { token: reader.token })).json.id, path).toBe(
        created.json.id,
      );
    // The feed's entry for the published release.
    const feed = await actions.actionsOfRepository(
      t.services.ctx.db,
      created.json.repo_id ?? (await repoId()),
      10,
    );
    // (Beside the repository's creation and the new tag's push, as Forgejo records them.)
    expect(feed.filter((a) => a.opType === 24)).toEqual([
      expect.objectContaining({ opType: 24, refName: "v1.0", content: "First", isPrivate: true }),
    ]);
  });

  const repoId = async () => (await t.call("GET", base(), { token: owner.token })).json.id as number;

  it("answers Forgejo's refusals: 409 for a taken tag, 404 for a missing target, 422 for an invalid tag, 403 for readers", async () => {
    expect(
      (await t.call("POST", `${base()}/releases`, { token: writer.token, body: { tag_name: "V1.0" } }))
        .status,
    ).toBe(409);
    const missing = await t.call("POST", `${base()}/releases`, {
      token: writer.token,
      body: { tag_name: "v9", target_commitish: "no-such-branch" },
    });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toContain('target "no-such-branch" not found');
    expect(
      (await t.call("POST", `${base()}/releases`, { token: writer.token, body: { tag_name: "a..b" } }))
        .status,
    ).toBe(422);
    expect((await t.call("POST", `${base()}/releases`, { token: writer.token, body: {} })).status).toBe(422);
    expect(
      (await t.call("POST", `${base()}/releases`, { token: reader.token, body: { tag_name: "v2" } })).status,
    ).toBe(403);
    expect((await t.call("GET", `${base()}/releases`, { token: outsider.token })).status).toBe(404);
    expect((await t.call("GET", `${base()}/releases`)).status).toBe(404);
  });

  it("keeps drafts from readers and creates a draft's tag only when it is published", async () => {
    const draft = await t.call("POST", `${base()}/releases`, {
      token: writer.token,
      body: { tag_name: "v2.0", name: "Second", draft: true, prerelease: true },
    });
    expect(draft.status).toBe(201);
    expect((await t.call("GET", `${base()}/tags/v2.0`, { token: owner.token })).status).toBe(404);
    expect((await t.call("GET", `${base()}/releases/${draft.json.id}`, { token: reader.token })).status).toBe(
      404,
    );
    expect((await t.call("GET", `${base()}/releases/tags/v2.0`, { token: reader.token })).status).toBe(404);
    const seenByReader = await t.call("GET", `${base()}/releases`, { token: reader.token });
    expect(seenByReader.json.map((r: { tag_name: string }) => r.tag_name)).toEqual(["v1.0"]);
    expect(seenByReader.headers.get("X-Total-Count")).toBe("1");
    const seenByWriter = await t.call("GET", `${base()}/releases?draft=true`, { token: writer.token });
    expect(seenByWriter.json.map((r: { tag_name: string }) => r.tag_name)).toEqual(["v2.0"]);

    const published = await t.call("PATCH", `${base()}/releases/${draft.json.id}`, {
      token: writer.token,
      body: { draft: false, name: "", body: "out now" },
    });
    expect(published.status).toBe(200);
    expect(published.json).toMatchObject({ draft: false, prerelease: true, name: "Second", body: "out now" });
    expect((await t.call("GET", `${base()}/tags/v2.0`, { token: owner.token })).status).toBe(200);
    // A pre-release is never the latest.
    expect((await t.call("GET", `${base()}/releases/latest`, { token: reader.token })).json.tag_name).toBe(
      "v1.0",
    );
    const search = await t.call("GET", `${base()}/releases?q=out+now&pre-release=true`, {
      token: reader.token,
    });
    expect(search.json.map((r: { tag_name: string }) => r.tag_name)).toEqual(["v2.0"]);
  });

  it("uploads assets as multipart and raw bodies, byte for byte, counting them against the repository's owner", async () => {
    const release = (await t.call("GET", `${base()}/releases/tags/v1.0`, { token: owner.token })).json;
    const before = await usage();
    const a = bytesOf(300_000, 1);
    const b = bytesOf(70_001, 2);
    const up1 = await uploadForm(
      server.url,
      `${base()}/releases/${release.id}/assets`,
      writer,
      "build.zip",
      a,
    );
    expect(up1.status).toBe(201);
    expect(up1.json).toMatchObject({
      name: "build.zip",
      size: a.length,
      download_count: 0,
      type: "attachment",
    });
    expect(up1.json.browser_download_url).toBe(`http://kiln.test/attachments/${up1.json.uuid}`);
    const up2 = await send(
      server.url,
      "POST",
      `/api/v1${base()}/releases/${release.id}/assets?name=raw.bin`,
      {
        user: writer,
        body: b,
        contentType: "application/octet-stream",
      },
    );
    expect(up2.status).toBe(201);
    expect(up2.json).toMatchObject({ name: "raw.bin", size: b.length });
    expect(await usage()).toEqual({ issues: before.issues, releases: before.releases + a.length + b.length });
    // The uploader is not charged.
    expect((await usage("/user/quota", writer)).releases).toBe(0);

    const listed = await t.call("GET", `${base()}/releases/${release.id}/assets`, { token: reader.token });
    expect(listed.json.map((x: { name: string }) => x.name)).toEqual(["build.zip", "raw.bin"]);
    const full = await t.call("GET", `${base()}/releases/${release.id}`, { token: reader.token });
    expect(full.json.assets).toHaveLength(2);

    const path = (url: string) => new URL(url).pathname;
    const download = await send(server.url, "GET", path(up1.json.browser_download_url), { user: reader });
    expect(download.status).toBe(200);
    expect(sha256(download.body)).toBe(sha256(a));
    expect(download.headers.get("content-length")).toBe(String(a.length));
    const part = await send(server.url, "GET", path(up2.json.browser_download_url), {
      user: reader,
      headers: { Range: "bytes=10-19" },
    });
    expect(part.status).toBe(206);
    expect(part.body.equals(b.subarray(10, 20))).toBe(true);
    // Past the end: 416 naming the size, as Go's http.ServeContent behind Forgejo's download.
    const past = await send(server.url, "GET", path(up2.json.browser_download_url), {
      user: reader,
      headers: { Range: `bytes=${b.length}-` },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${b.length}`);
    // A client holding the ETag gets 304 without the bytes (Forgejo's HandleGenericETagCache).
    const etag = download.headers.get("etag") as string;
    expect(etag).toBe(`"${up1.json.uuid}"`);
    const cached = await send(server.url, "GET", path(up1.json.browser_download_url), {
      user: reader,
      headers: { "If-None-Match": etag },
    });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.get("etag")).toBe(etag);
    expect(
      (
        await send(server.url, "GET", path(up1.json.browser_download_url), {
          headers: { "If-None-Match": etag },
        })
      ).status,
    ).toBe(404);
    const got = await t.call("GET", `${base()}/releases/${release.id}/assets/${up1.json.id}`, {
      token: reader.token,
    });
    expect(got.json.download_count).toBe(2);

    // Hidden from those who may not read the repository, whatever they know of it.
    expect(
      (await send(server.url, "GET", path(up1.json.browser_download_url), { user: outsider })).status,
    ).toBe(404);
    expect((await send(server.url, "GET", path(up1.json.browser_download_url))).status).toBe(404);
    expect((await send(server.url, "GET", "/attachments/not-a-uuid")).status).toBe(404);

    const renamed = await t.call("PATCH", `${base()}/releases/${release.id}/assets/${up2.json.id}`, {
      token: writer.token,
      body: { name: "renamed.bin" },
    });
    expect(renamed.status).toBe(201);
    expect(renamed.json.name).toBe("renamed.bin");
    expect(
      (
        await t.call("PATCH", `${base()}/releases/${release.id}/assets/${up2.json.id}`, {
          token: writer.token,
          body: { browser_download_url: "https://example.com/x" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.call("DELETE", `${base()}/releases/${release.id}/assets/${up2.json.id}`, {
          token: reader.token,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call("DELETE", `${base()}/releases/${release.id}/assets/${up2.json.id}`, {
          token: writer.token,
        })
      ).status,
    ).toBe(204);
    expect(await usage()).toEqual({ issues: before.issues, releases: before.releases + a.length });
    expect(
      (await t.call("GET", `${base()}/releases/${release.id}/assets/${up2.json.id}`, { token: owner.token }))
        .status,
    ).toBe(404);
  });

  it("links external assets, refuses a request with neither or both, and names what is missing", async () => {
    const release = (await t.call("GET", `${base()}/releases/tags/v1.0`, { token: owner.token })).json;
    const assets = `/api/v1${base()}/releases/${release.id}/assets`;
    const link = multipart([{ name: "external_url", value: "https://example.com/dl/tool.tar.gz" }]);
    const linked = await send(server.url, "POST", assets, {
      user: writer,
      body: link.body,
      contentType: link.contentType,
    });
    expect(linked.status).toBe(201);
    expect(linked.json).toMatchObject({
      name: "tool.tar.gz",
      size: 0,
      type: "external",
      browser_download_url: "https://example.com/dl/tool.tar.gz",
    });
    const redirect = await send(server.url, "GET", `/attachments/${linked.json.uuid}`, { user: reader });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe("https://example.com/dl/tool.tar.gz");
    const both = multipart([
      { name: "external_url", value: "https://example.com/x" },
      { name: "attachment", filename: "x.bin", data: bytesOf(10) },
    ]);
    expect(
      (
        await send(server.url, "POST", assets, {
          user: writer,
          body: both.body,
          contentType: both.contentType,
        })
      ).status,
    ).toBe(400);
    const neither = multipart([{ name: "other", value: "x" }]);
    const none = await send(server.url, "POST", assets, {
      user: writer,
      body: neither.body,
      contentType: neither.contentType,
    });
    expect(none.status).toBe(400);
    expect(none.json.message).toBe("One of 'attachment' or 'external_url' is required");
    const unnamed = await send(server.url, "POST", assets, {
      user: writer,
      body: bytesOf(5),
      contentType: "application/octet-stream",
    });
    expect(unnamed.json.message).toBe("Missing 'name' parameter");
    const bad = multipart([{ name: "external_url", value: "ftp://example.com/x" }]);
    expect(
      (await send(server.url, "POST", assets, { user: writer, body: bad.body, contentType: bad.contentType }))
        .status,
    ).toBe(400);
  });

  it("lists the owner's attachments for /user/quota/attachments, largest first", async () => {
    const list = await t.call("GET", "/user/quota/attachments", { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json[0]).toMatchObject({
      name: "build.zip",
      size: 300_000,
      contained_in: { html_url: `http://kiln.test/${owner.name}/${repo}/releases/tag/v1.0` },
    });
    expect(list.json[0].api_url).toMatch(
      new RegExp(`/api/v1/repos/${owner.name}/${repo}/releases/\\d+/assets/\\d+$`),
    );
    expect((await t.call("GET", "/user/quota/attachments", { token: writer.token })).json).toEqual([]);
  });

  it("deletes a release with its assets and their usage, keeping the tag; deleting by tag too", async () => {
    const release = (await t.call("GET", `${base()}/releases/tags/v1.0`, { token: owner.token })).json;
    expect((await usage()).releases).toBe(300_000);
    // A release's tag goes only with the release, as in Forgejo.
    const tagDelete = await t.call("DELETE", `${base()}/tags/v1.0`, { token: writer.token });
    expect(tagDelete.status).toBe(409);
    expect(tagDelete.json.message).toBe("a tag attached to a release cannot be deleted directly");
    expect((await t.call("DELETE", `${base()}/releases/${release.id}`, { token: writer.token })).status).toBe(
      204,
    );
    expect(await usage()).toEqual({ issues: 0, releases: 0 });
    expect((await t.call("GET", `${base()}/tags/v1.0`, { token: owner.token })).status).toBe(200);
    expect((await t.call("GET", `${base()}/releases/${release.id}`, { token: owner.token })).status).toBe(
      404,
    );
    expect((await t.call("DELETE", `${base()}/releases/tags/v2.0`, { token: writer.token })).status).toBe(
      204,
    );
    expect((await t.call("DELETE", `${base()}/releases/tags/v2.0`, { token: writer.token })).status).toBe(
      404,
    );
    expect((await t.call("GET", `${base()}/tags/v2.0`, { token: owner.token })).status).toBe(200);
  });

  it("counts an organization's release assets against the organization, moves them on transfer, releases them on deletion", async () => {
    const org = "rel-org";
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(201);
    expect(
      (
        await t.call("POST", `/orgs/${org}/repos`, {
          token: owner.token,
          body: { name: "orepo", auto_init: true },
        })
      ).status,
    ).toBe(201);
    const rel = await t.call("POST", `/repos/${org}/orepo/releases`, {
      token: owner.token,
      body: { tag_name: "v1" },
    });
    const data = bytesOf(12_345, 3);
    const up = await uploadForm(
      server.url,
      `/repos/${org}/orepo/releases/${rel.json.id}/assets`,
      owner,
      "o.bin",
      data,
    );
    expect(up.status).toBe(201);
    expect(await usage(`/orgs/${org}/quota`)).toEqual({ issues: 0, releases: data.length });
    expect((await usage()).releases).toBe(0);
    // Transferred to the user: the usage follows the repository.
    const moved = await t.call("POST", `/repos/${org}/orepo/transfer`, {
      token: owner.token,
      body: { new_owner: owner.name },
    });
    expect(moved.status).toBe(202);
    expect((await usage(`/orgs/${org}/quota`)).releases).toBe(0);
    expect((await usage()).releases).toBe(data.length);
    expect((await t.call("DELETE", `/repos/${owner.name}/orepo`, { token: owner.token })).status).toBe(204);
    expect((await usage()).releases).toBe(0);
    const report = await t.services.quotaDoctor.run({ fix: false });
    expect(report.drifts).toEqual([]);
  });

  it("deleting a user with purge takes its repositories' attachments and their usage", async () => {
    const admin = await t.user({ admin: true });
    const gone = await t.user();
    await t.call("POST", "/user/repos", { token: gone.token, body: { name: "doomed", auto_init: true } });
    const rel = await t.call("POST", `/repos/${gone.name}/doomed/releases`, {
      token: gone.token,
      body: { tag_name: "v1" },
    });
    const up = await uploadForm(
      server.url,
      `/repos/${gone.name}/doomed/releases/${rel.json.id}/assets`,
      gone,
      "g.bin",
      bytesOf(4096, 5),
    );
    expect(up.status).toBe(201);
    expect(
      (await t.call("DELETE", `/admin/users/${gone.name}?purge=true`, { token: admin.token })).status,
    ).toBe(204);
    expect((await send(server.url, "GET", `/attachments/${up.json.uuid}`, { user: admin })).status).toBe(404);
    expect((await t.services.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
    const rows = await t.services.ctx.db
      .selectFrom("attachment")
      .select("id")
      .where("uuid", "=", up.json.uuid)
      .execute();
    expect(rows).toEqual([]);
  });

  it("answers 413 past [attachment] MAX_SIZE and keeps nothing; a rename is held to [repository.release] ALLOWED_TYPES", async () => {
    const small = await openTestApp(dialect, { attachment: { maxSize: 1, releaseAllowedTypes: ".bin" } });
    const srv = await listen(small.app);
    try {
      const u = await small.user();
      await small.call("POST", "/user/repos", { token: u.token, body: { name: "r", auto_init: true } });
      const rel = await small.call("POST", `/repos/${u.name}/r/releases`, {
        token: u.token,
        body: { tag_name: "v1" },
      });
      const big = await uploadForm(
        srv.url,
        `/repos/${u.name}/r/releases/${rel.json.id}/assets`,
        u,
        "big.bin",
        bytesOf(1024 * 1024 + 1),
      );
      expect(big.status).toBe(413);
      expect(big.json.message).toContain("[attachment] MAX_SIZE");
      // Nothing of it is kept: no file, finished or not, no row, no usage.
      const stored = () =>
        readdirSync(small.settings.attachment.path, { recursive: true, withFileTypes: true }).filter((e) =>
          e.isFile(),
        );
      expect(existsSync(small.settings.attachment.path) ? stored() : []).toEqual([]);
      expect(
        (await small.call("GET", "/user/quota", { token: u.token })).json.used.size.assets.attachments
          .releases,
      ).toBe(0);
      const exact = await uploadForm(
        srv.url,
        `/repos/${u.name}/r/releases/${rel.json.id}/assets`,
        u,
        "ok.bin",
        bytesOf(1024 * 1024),
      );
      expect(exact.status).toBe(201);
      const used = (await small.call("GET", "/user/quota", { token: u.token })).json.used.size.assets
        .attachments;
      expect(used.releases).toBe(1024 * 1024);
      expect(
        (await small.call("GET", `/repos/${u.name}/r/releases/${rel.json.id}/assets`, { token: u.token }))
          .json,
      ).toHaveLength(1);
      expect(stored().map((e) => e.name)).toHaveLength(1);
      // A release deleted while an asset streams in: the upload is refused (404) once its bytes
      // arrived, and they do not stay behind.
      const doomed = await small.call("POST", `/repos/${u.name}/r/releases`, {
        token: u.token,
        body: { tag_name: "v2" },
      });
      const boundary = "kiln-test-boundary";
      let finish!: () => void;
      const finished = new Promise<void>((r) => {
        finish = r;
      });
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(
            encoder.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="late.bin"\r\n` +
                "Content-Type: application/octet-stream\r\n\r\n",
            ),
          );
          controller.enqueue(bytesOf(1000));
          await finished;
          controller.enqueue(bytesOf(1000));
          controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
          controller.close();
        },
      });
      const late = fetch(`${srv.url}/api/v1/repos/${u.name}/r/releases/${doomed.json.id}/assets`, {
        method: "POST",
        headers: {
          Authorization: `token ${u.token}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
        },
        body,
        duplex: "half",
      } as RequestInit);
      // The upload is being stored (its unfinished file exists) before the release goes.
      while (stored().length < 2) await new Promise((r) => setTimeout(r, 10));
      expect(
        (await small.call("DELETE", `/repos/${u.name}/r/releases/${doomed.json.id}`, { token: u.token }))
          .status,
      ).toBe(204);
      finish();
      expect((await late).status).toBe(404);
      expect(stored().map((e) => e.name)).toHaveLength(1);
      // Forgejo's EditReleaseAttachment checks the new name as an upload's (422), so an allowed
      // .bin cannot be renamed into a type the list refuses.
      const asset = `/repos/${u.name}/r/releases/${rel.json.id}/assets/${exact.json.id}`;
      const refused = await small.call("PATCH", asset, { token: u.token, body: { name: "page.html" } });
      expect(refused.status).toBe(422);
      expect(refused.json.message).toBe("This file extension or type is not allowed to be uploaded.");
      const renamed = await small.call("PATCH", asset, { token: u.token, body: { name: "other.bin" } });
      expect(renamed.status).toBe(201);
      expect(renamed.json.name).toBe("other.bin");
    } finally {
      await srv.close();
      await small.close();
    }
  });
});
