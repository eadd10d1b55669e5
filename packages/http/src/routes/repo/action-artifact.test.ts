import { randomBytes } from "node:crypto";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, readResult, type TestApp, type TestUser } from "../../../test/support.js";
import { zipOf } from "../../../test/zip-fixture.js";

const MAX = 64 * 1024;

describe.each(DIALECTS)("Actions artifacts over the API on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let org: { id: number; name: string };
  let priv: string;
  let pub: string;
  let orgRepo: string;

  const send = (
    method: string,
    path: string,
    init: { token?: string; body?: RequestInit["body"]; type?: string } = {},
  ) =>
    t.app.request(`http://kiln.test/api/v1${path}`, {
      method,
      headers: {
        ...(init.token ? { Authorization: `token ${init.token}` } : {}),
        ...(init.type ? { "Content-Type": init.type } : {}),
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
  const upload = async (
    repo: string,
    run: number,
    name: string,
    zip: Buffer,
    token = bob.token,
    extra = "",
  ) =>
    readResult(
      await send(
        "POST",
        `/repos/${repo}/actions/runs/${run}/artifacts?name=${encodeURIComponent(name)}${extra}`,
        {
          token,
          body: zip,
          type: "application/zip",
        },
      ),
    );
  const artifactsUsed = async (user: TestUser, path = "/user/quota") =>
    (await t.call("GET", path, { token: user.token })).json.used.size.assets.artifacts as number;

  beforeAll(async () => {
    t = await openTestApp(dialect, { actions: { artifactMaxSize: MAX } });
    alice = await t.user();
    bob = await t.user();
    reader = await t.user();
    outsider = await t.user();
    const mk = async (token: string, path: string, isPrivate: boolean) => {
      const res = await t.call("POST", path, { token, body: { name: uniqueName("ci"), private: isPrivate } });
      expect(res.status).toBe(201);
      return res.json.full_name as string;
    };
    priv = await mk(alice.token, "/user/repos", true);
    pub = await mk(alice.token, "/user/repos", false);
    for (const [user, permission] of [
      [bob, "write"],
      [reader, "read"],
    ] as const) {
      for (const repo of [priv, pub]) {
        const res = await t.call("PUT", `/repos/${repo}/collaborators/${user.name}`, {
          token: alice.token,
          body: { permission },
        });
        expect(res.status).toBe(204);
      }
    }
    const orgName = uniqueName("org");
    expect((await t.call("POST", "/orgs", { token: bob.token, body: { username: orgName } })).status).toBe(
      201,
    );
    org = { id: (await t.call("GET", `/orgs/${orgName}`, { token: bob.token })).json.id, name: orgName };
    orgRepo = await mk(bob.token, `/orgs/${orgName}/repos`, true);
  });
  afterAll(() => t?.close());

  it("round-trips a zip: upload (raw and multipart), list, get, download byte for byte, counted against the owner", async () => {
    const zip = zipOf({
      "report.txt": "all tests passed\n",
      "coverage.json": randomBytes(2000).toString("hex"),
    });
    const sha = "c".repeat(40);
    const made = await upload(priv, 12, "test-report", zip, bob.token, `&head_sha=${sha}&retention_days=3`);
    expect(made.status).toBe(201);
    const id = made.json.id as number;
    const apiUrl = `${t.settings.server.rootUrl}api/v1/repos/${priv}/actions/artifacts/${id}`;
    expect(made.json).toEqual({
      id,
      name: "test-report",
      size_in_bytes: zip.length,
      url: apiUrl,
      archive_download_url: `${apiUrl}/zip`,
      expired: false,
      workflow_run: { id: 12, repository_id: expect.any(Number), head_sha: sha },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(made.json.expires_at) - Date.parse(made.json.created_at)).toBe(3 * 86_400_000);
    // Multipart, as a form with an `attachment` file.
    const form = new FormData();
    form.append("attachment", new Blob([zip]), "dist.zip");
    const multipart = await readResult(
      await send("POST", `/repos/${priv}/actions/runs/12/artifacts?name=dist`, {
        token: bob.token,
        body: form,
      }),
    );
    expect([multipart.status, multipart.json.size_in_bytes]).toEqual([201, zip.length]);

    const list = await t.call("GET", `/repos/${priv}/actions/artifacts`, { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.json.total_count).toBe(2);
    expect(list.json.artifacts.map((a: { name: string }) => a.name)).toEqual(["test-report", "dist"]);
    const named = await t.call("GET", `/repos/${priv}/actions/artifacts?name=dist`, { token: reader.token });
    expect(named.json.artifacts.map((a: { name: string }) => a.name)).toEqual(["dist"]);
    const paged = await t.call("GET", `/repos/${priv}/actions/artifacts?limit=1&page=2`, {
      token: reader.token,
    });
    expect([paged.json.total_count, paged.json.artifacts[0].name]).toEqual([2, "dist"]);
    expect(
      (await t.call("GET", `/repos/${priv}/actions/artifacts/${id}`, { token: reader.token })).json,
    ).toEqual(made.json);
    const download = await send("GET", `/repos/${priv}/actions/artifacts/${id}/zip`, { token: reader.token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/zip");
    expect(download.headers.get("content-disposition")).toContain('filename="test-report.zip"');
    expect(Buffer.from(await download.arrayBuffer()).equals(zip)).toBe(true);

    // alice owns the repository: both count against her, none against bob who uploaded them.
    expect(await artifactsUsed(alice)).toBe(2 * zip.length);
    expect(await artifactsUsed(bob)).toBe(0);
    const used = await t.call("GET", "/user/quota/artifacts", { token: alice.token });
    expect(used.headers.get("x-total-count")).toBe("2");
    expect(used.json).toEqual([
      {
        name: "test-report",
        size: zip.length,
        html_url: `${t.settings.server.rootUrl}${priv}/actions/runs/12`,
      },
      { name: "dist", size: zip.length, html_url: `${t.settings.server.rootUrl}${priv}/actions/runs/12` },
    ]);
  });

  it("counts an organization's artifacts against the organization and releases them on delete", async () => {
    const zip = zipOf({ "a.bin": randomBytes(3000) });
    const made = await upload(orgRepo, 1, "bundle", zip, bob.token);
    expect(made.status).toBe(201);
    expect(await artifactsUsed(bob, `/orgs/${org.name}/quota`)).toBe(zip.length);
    expect(await artifactsUsed(bob)).toBe(0);
    const orgList = await t.call("GET", `/orgs/${org.name}/quota/artifacts`, { token: bob.token });
    expect(orgList.json).toEqual([expect.objectContaining({ name: "bundle", size: zip.length })]);
    const del = await t.call("DELETE", `/repos/${orgRepo}/actions/artifacts/${made.json.id}`, {
      token: bob.token,
    });
    expect(del.status).toBe(204);
    expect(await artifactsUsed(bob, `/orgs/${org.name}/quota`)).toBe(0);
    expect(
      (await t.call("GET", `/repos/${orgRepo}/actions/artifacts/${made.json.id}`, { token: bob.token }))
        .status,
    ).toBe(404);
    expect((await t.call("GET", `/repos/${orgRepo}/actions/artifacts`, { token: bob.token })).json).toEqual({
      total_count: 0,
      artifacts: [],
    });
  });

  it("refuses bad uploads with Forgejo's statuses and stores nothing", async () => {
    const zip = zipOf({ "x.txt": "x" });
    const before = await artifactsUsed(alice);
    expect((await upload(pub, 5, "once", zip)).status).toBe(201);
    const cases: [string, Promise<{ status: number; json: { message?: string } }>, number, string][] = [
      ["taken name", upload(pub, 5, "once", zip), 409, "artifact already exists"],
      [
        "not a zip",
        upload(pub, 5, "text", Buffer.from("just text")),
        422,
        "an artifact must be a zip archive",
      ],
      ["bad name", upload(pub, 5, "a:b", zip), 422, "invalid artifact name"],
      ["no name", upload(pub, 5, "", zip), 422, ""],
      ["huge", upload(pub, 5, "big", zipOf({ big: randomBytes(MAX) })), 413, "ARTIFACT_MAX_SIZE"],
      ["bad retention", upload(pub, 5, "r", zip, bob.token, "&retention_days=0"), 422, ""],
      ["bad sha", upload(pub, 5, "s", zip, bob.token, "&head_sha=xyz"), 422, ""],
      ["bad run", upload(pub, 0, "run0", zip), 404, ""],
      ["reader", upload(pub, 5, "r2", zip, reader.token), 403, ""],
      ["outsider, private", upload(priv, 5, "o", zip, outsider.token), 404, ""],
    ];
    for (const [what, pending, status, message] of cases) {
      const res = await pending;
      expect([what, res.status]).toEqual([what, status]);
      if (message) expect(res.json.message).toContain(message);
    }
    const anonymous = await send("POST", `/repos/${pub}/actions/runs/5/artifacts?name=anon`, { body: zip });
    expect(anonymous.status).toBe(401);
    const emptyForm = new FormData();
    emptyForm.append("other", "field");
    const noFile = await send("POST", `/repos/${pub}/actions/runs/5/artifacts?name=f`, {
      token: bob.token,
      body: emptyForm,
    });
    expect(noFile.status).toBe(400);
    expect(
      (await t.call("GET", `/repos/${pub}/actions/artifacts`, { token: alice.token })).json.total_count,
    ).toBe(1);
    expect(await artifactsUsed(alice)).toBe(before + zip.length);
  });

  it("shows a private repository's artifacts to no outsider, and a public one's to anyone", async () => {
    const zip = zipOf({ "secret.txt": "secret" });
    const made = await upload(priv, 99, "private-bits", zip);
    const id = made.json.id as number;
    for (const path of [
      `/repos/${priv}/actions/artifacts`,
      `/repos/${priv}/actions/artifacts/${id}`,
      `/repos/${priv}/actions/artifacts/${id}/zip`,
    ]) {
      expect((await t.call("GET", path, { token: outsider.token })).status).toBe(404);
      expect((await t.call("GET", path)).status).toBe(404);
    }
    expect(
      (await t.call("DELETE", `/repos/${priv}/actions/artifacts/${id}`, { token: outsider.token })).status,
    ).toBe(404);
    // Another repository's id is not found through this one.
    expect(
      (await t.call("GET", `/repos/${pub}/actions/artifacts/${id}`, { token: alice.token })).status,
    ).toBe(404);
    expect(
      (await t.call("DELETE", `/repos/${priv}/actions/artifacts/${id}`, { token: reader.token })).status,
    ).toBe(403);
    const pubList = await t.call("GET", `/repos/${pub}/actions/artifacts`);
    expect(pubList.status).toBe(200);
    expect(
      (await t.call("DELETE", `/repos/${pub}/actions/artifacts/${pubList.json.artifacts[0].id}`)).status,
    ).toBe(401);
    expect(
      (await t.call("GET", `/repos/${priv}/actions/artifacts/${id}`, { token: alice.token })).status,
    ).toBe(200);
  });

  it("lists for a public-only token the artifacts of public repositories only", async () => {
    const zip = zipOf({ "p.txt": "public" });
    expect((await upload(pub, 3, "public-one", zip)).status).toBe(201);
    const { secret } = await t.services.tokens.create(await t.services.users.getByName(alice.name), "po", [
      "public-only",
      "all",
    ]);
    const seen = (await t.call("GET", "/user/quota/artifacts?limit=50", { token: secret })).json as {
      html_url: string;
    }[];
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((a) => a.html_url.includes(`/${pub}/`))).toBe(true);
    const all = (await t.call("GET", "/user/quota/artifacts?limit=50", { token: alice.token })).json as {
      html_url: string;
    }[];
    expect(all.some((a) => a.html_url.includes(`/${priv}/`))).toBe(true);
  });

  it("makes an expired artifact gone at once, and releases its usage when cleanup_actions runs", async () => {
    const zip = zipOf({ "old.txt": "old" });
    const made = await upload(priv, 7, "short-lived", zip, bob.token, "&retention_days=1");
    const id = made.json.id as number;
    const before = await artifactsUsed(alice);
    await t.services.ctx.db
      .updateTable("actionArtifact")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", id)
      .execute();
    for (const path of [
      `/repos/${priv}/actions/artifacts/${id}`,
      `/repos/${priv}/actions/artifacts/${id}/zip`,
    ])
      expect((await t.call("GET", path, { token: alice.token })).status).toBe(404);
    const names = (
      await t.call("GET", `/repos/${priv}/actions/artifacts`, { token: alice.token })
    ).json.artifacts.map((a: { name: string }) => a.name);
    expect(names).not.toContain("short-lived");
    const quotaList = (await t.call("GET", "/user/quota/artifacts?limit=50", { token: alice.token })).json;
    expect(quotaList.map((a: { name: string }) => a.name)).not.toContain("short-lived");
    const run = await t.services.cron.run("cleanup_actions");
    expect(run?.status).toBe("finished");
    expect(await artifactsUsed(alice)).toBe(before - zip.length);
  });
});
