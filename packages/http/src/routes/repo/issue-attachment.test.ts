import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, multipart, send, sha256, uploadForm } from "../../../test/attachments.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

/**
 * Issue and comment attachments over a real socket on both databases: who may add, rename and
 * delete them (Forgejo's rules), byte-exact downloads for readers only, the usage of the
 * repository's owner (an organization here; the uploader is a reader who posted the issue), and
 * that deleting a comment or an issue releases its attachments' usage.
 */
describe.each(DIALECTS)("issue and comment attachments on %s", (dialect) => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  let owner: TestUser;
  let poster: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  const org = "att-org";
  const repo = "att-repo";
  const base = `/repos/${org}/${repo}`;
  const orgUsage = async () =>
    (await t.call("GET", `/orgs/${org}/quota`, { token: owner.token })).json.used.size.assets.attachments as {
      issues: number;
      releases: number;
    };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    server = await listen(t.app);
    owner = await t.user();
    poster = await t.user();
    reader = await t.user();
    outsider = await t.user();
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(201);
    expect(
      (
        await t.call("POST", `/orgs/${org}/repos`, {
          token: owner.token,
          body: { name: repo, private: true },
        })
      ).status,
    ).toBe(201);
    for (const who of [poster, reader])
      await t.call("PUT", `${base}/collaborators/${who.name}`, {
        token: owner.token,
        body: { permission: "read" },
      });
    expect(
      (await t.call("POST", `${base}/issues`, { token: poster.token, body: { title: "with files" } })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it("lets the issue's poster attach files, counted against the organization, and readers download them", async () => {
    const data = bytesOf(50_000, 7);
    const up = await uploadForm(server.url, `${base}/issues/1/assets`, poster, "trace.log", data);
    expect(up.status).toBe(201);
    expect(up.json).toMatchObject({ name: "trace.log", size: data.length, type: "attachment" });
    expect(await orgUsage()).toEqual({ issues: data.length, releases: 0 });
    const list = await t.call("GET", `${base}/issues/1/assets`, { token: reader.token });
    expect(list.json.map((a: { id: number }) => a.id)).toEqual([up.json.id]);
    const got = await t.call("GET", `${base}/issues/1/assets/${up.json.id}`, { token: reader.token });
    expect(got.json.uuid).toBe(up.json.uuid);
    // The issue shows it among its assets, as Forgejo's Issue does.
    const issue = await t.call("GET", `${base}/issues/1`, { token: reader.token });
    expect(issue.json.assets).toEqual([got.json]);
    const listed = await t.call("GET", `${base}/issues?state=all`, { token: reader.token });
    expect(listed.json[0].assets).toEqual([got.json]);
    const download = await send(server.url, "GET", `/attachments/${up.json.uuid}`, { user: reader });
    expect(download.status).toBe(200);
    expect(sha256(download.body)).toBe(sha256(data));
    expect((await send(server.url, "GET", `/attachments/${up.json.uuid}`, { user: outsider })).status).toBe(
      404,
    );
    expect((await t.call("GET", `${base}/issues/1/assets`, { token: outsider.token })).status).toBe(404);
  });

  it("refuses other readers (403), a file type outside ALLOWED_TYPES (422) and a form without the file (400)", async () => {
    const other = await uploadForm(
      server.url,
      `${base}/issues/1/assets`,
      reader,
      "x.txt",
      Buffer.from("hello"),
    );
    expect(other.status).toBe(403);
    expect(other.json.message).toBe("user should have permission to write issue");
    const exe = await uploadForm(
      server.url,
      `${base}/issues/1/assets`,
      poster,
      "tool.exe",
      Buffer.from([0x4d, 0x5a, 0x90, 0]),
    );
    expect(exe.status).toBe(422);
    expect(exe.json.message).toBe("This file extension or type is not allowed to be uploaded.");
    const empty = multipart([{ name: "note", value: "no file" }]);
    const none = await send(server.url, "POST", `/api/v1${base}/issues/1/assets`, {
      user: poster,
      body: empty.body,
      contentType: empty.contentType,
    });
    expect(none.status).toBe(400);
    const raw = await send(server.url, "POST", `/api/v1${base}/issues/1/assets?name=a.txt`, {
      user: poster,
      body: Buffer.from("raw"),
      contentType: "text/plain",
    });
    expect(raw.status).toBe(400);
    expect(
      (await uploadForm(server.url, `${base}/issues/9/assets`, owner, "a.txt", Buffer.from("x"))).status,
    ).toBe(404);
  });

  it("attaches files to comments (poster who may write, as Forgejo) and releases them with the comment", async () => {
    const comment = await t.call("POST", `${base}/issues/1/comments`, {
      token: owner.token,
      body: { body: "see file" },
    });
    const data = bytesOf(20_000, 8);
    const before = await orgUsage();
    // The reader may comment but may not attach to someone else's comment.
    const denied = await uploadForm(
      server.url,
      `${base}/issues/comments/${comment.json.id}/assets`,
      reader,
      "c.zip",
      data,
    );
    expect(denied.status).toBe(403);
    const up = await uploadForm(
      server.url,
      `${base}/issues/comments/${comment.json.id}/assets`,
      owner,
      "c.zip",
      data,
    );
    expect(up.status).toBe(201);
    expect(await orgUsage()).toEqual({ issues: before.issues + data.length, releases: 0 });
    const list = await t.call("GET", `${base}/issues/comments/${comment.json.id}/assets`, {
      token: reader.token,
    });
    expect(list.json.map((a: { name: string }) => a.name)).toEqual(["c.zip"]);
    const shown = await t.call("GET", `${base}/issues/comments/${comment.json.id}`, { token: reader.token });
    expect(shown.json.assets.map((a: { name: string }) => a.name)).toEqual(["c.zip"]);
    const renamed = await t.call("PATCH", `${base}/issues/comments/${comment.json.id}/assets/${up.json.id}`, {
      token: owner.token,
      body: { name: "d.zip" },
    });
    expect(renamed.status).toBe(201);
    expect(renamed.json.name).toBe("d.zip");
    expect(
      (
        await t.call("PATCH", `${base}/issues/comments/${comment.json.id}/assets/${up.json.id}`, {
          token: owner.token,
          body: { name: "d.exe" },
        })
      ).status,
    ).toBe(422);
    // A comment's attachment is not one of the issue's own, but is found under the issue as in Forgejo.
    expect((await t.call("GET", `${base}/issues/1/assets`, { token: reader.token })).json).toHaveLength(1);
    expect(
      (await t.call("GET", `${base}/issues/1/assets/${up.json.id}`, { token: reader.token })).status,
    ).toBe(200);
    expect(
      (await t.call("DELETE", `${base}/issues/comments/${comment.json.id}`, { token: owner.token })).status,
    ).toBe(204);
    expect(await orgUsage()).toEqual(before);
  });

  it("renames and deletes an issue's attachment, and deleting the issue releases the rest", async () => {
    const extra = bytesOf(999, 9);
    const up = await uploadForm(server.url, `${base}/issues/1/assets`, poster, "more.zip", extra);
    const before = await orgUsage();
    expect(
      (
        await t.call("PATCH", `${base}/issues/1/assets/${up.json.id}`, {
          token: reader.token,
          body: { name: "x" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call("PATCH", `${base}/issues/1/assets/${up.json.id}`, {
          token: poster.token,
          body: { name: "m.zip" },
        })
      ).json.name,
    ).toBe("m.zip");
    // A rename is checked against ALLOWED_TYPES as an upload is (Forgejo's UpdateAttachment): an
    // allowed .zip cannot become a refused .html.
    const refused = await t.call("PATCH", `${base}/issues/1/assets/${up.json.id}`, {
      token: poster.token,
      body: { name: "page.html" },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe("This file extension or type is not allowed to be uploaded.");
    expect(
      (await t.call("GET", `${base}/issues/1/assets/${up.json.id}`, { token: poster.token })).json.name,
    ).toBe("m.zip");
    expect(
      (await t.call("DELETE", `${base}/issues/1/assets/${up.json.id}`, { token: poster.token })).status,
    ).toBe(204);
    expect(await orgUsage()).toEqual({ issues: before.issues - extra.length, releases: 0 });
    expect((await t.call("DELETE", `${base}/issues/1`, { token: owner.token })).status).toBe(204);
    expect(await orgUsage()).toEqual({ issues: 0, releases: 0 });
    expect((await t.services.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
  });

  it("answers 423 on an archived repository", async () => {
    await t.call("POST", `${base}/issues`, { token: poster.token, body: { title: "second" } });
    await t.call("PATCH", base, { token: owner.token, body: { archived: true } });
    const res = await uploadForm(server.url, `${base}/issues/2/assets`, poster, "a.txt", Buffer.from("x"));
    expect(res.status).toBe(423);
    await t.call("PATCH", base, { token: owner.token, body: { archived: false } });
  });
});
