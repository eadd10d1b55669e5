import { api } from "@kiln/domain";
import { createServices, silentLogger } from "@kiln/service";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addRepository } from "../test/quota-support.js";
import { openTestApp, readResult, type TestApp, type TestUser } from "../test/support.js";
import { createApp } from "./app.js";
import { enforceQuota } from "./quota-enforcement.js";
import { route } from "./route.js";

// Routes that store bytes, declared the way the repository, release and attachment routes will be.
const created = { 201: { description: "created", schema: v.object({ ok: v.boolean() }) } };
const writeAsDoer = route({
  method: "post",
  path: "/test/quota/repos",
  operationId: "testCreateRepo",
  tags: ["test"],
  summary: "stores a repository for the caller (Forgejo: POST /user/repos)",
  access: "signed-in",
  body: v.object({ name: v.pipe(v.string(), v.nonEmpty("Required")) }),
  responses: { ...created, 422: { description: "invalid", schema: api.APIError } },
  quota: { subject: "size:repos:all" },
  handler: (c) => c.json({ ok: true }, 201),
});
const writeAsOrg = route({
  method: "post",
  path: "/test/quota/orgs/{org}/assets",
  operationId: "testUploadOrgAsset",
  tags: ["test"],
  summary: "stores a release asset of an organization's repository",
  access: "signed-in",
  params: v.object({ org: v.string() }),
  responses: created,
  quota: {
    subject: "size:assets:attachments:releases",
    owner: (c, { params }) => c.get("services").users.getByName(params.org),
  },
  handler: (c) => c.json({ ok: true }, 201),
});
const checkInside = route({
  method: "post",
  path: "/test/quota/forks/{org}",
  operationId: "testFork",
  tags: ["test"],
  summary: "forks into an organization (Forgejo checks inside the handler)",
  access: "signed-in",
  params: v.object({ org: v.string() }),
  responses: created,
  async handler(c, { params }) {
    await enforceQuota(c, await c.get("services").users.getByName(params.org), "size:repos:all");
    return c.json({ ok: true }, 201);
  },
});

describe.each(DIALECTS)("the quota enforcement hook on %s", (dialect) => {
  let t: TestApp;
  let user: TestUser;
  let call: (method: string, path: string, body?: unknown, enabled?: boolean) => Promise<Response>;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    const admin = await t.user({ admin: true });
    user = await t.user();
    expect(
      (await t.call("POST", "/orgs", { token: user.token, body: { username: `${user.name}-org` } })).status,
    ).toBe(201);
    // Both owners are far over quota: a group denying everything, and stored bytes.
    expect(
      (
        await t.call("POST", "/admin/quota/groups", {
          token: admin.token,
          body: { name: "deny", rules: [{ name: "deny-all", limit: 0, subjects: ["size:all"] }] },
        })
      ).status,
    ).toBe(201);
    for (const owner of [user.name, `${user.name}-org`])
      expect(
        (await t.call("PUT", `/admin/quota/groups/deny/users/${owner}`, { token: admin.token })).status,
      ).toBe(204);
    await addRepository(t, user, { gitSize: 10_000 });
    const apps = {
      on: createApp({
        services: t.services,
        settings: t.services.ctx.settings,
        logger: silentLogger,
        validateResponses: true,
        routes: [writeAsDoer, writeAsOrg, checkInside],
      }),
      off: createApp({
        services: t.services,
        settings: { ...t.services.ctx.settings, quota: { ...t.services.ctx.settings.quota, enabled: false } },
        logger: silentLogger,
        validateResponses: true,
        routes: [writeAsDoer],
      }),
    };
    call = async (method, path, body, enabled = true) =>
      (enabled ? apps.on : apps.off).request(`http://kiln.test/api/v1${path}`, {
        method,
        headers: { Authorization: `token ${user.token}`, "Content-Type": "application/json" },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
  });
  afterAll(() => t?.close());

  it("is asked, with the caller and the route's subject, and rejects nothing while enforcement is off", async () => {
    expect(await t.services.quota.check(user.id, "size:repos:all")).toBe(false);
    const enforce = vi.spyOn(t.services.quota, "enforce");
    try {
      const res = await call("POST", "/test/quota/repos", { name: "new" });
      expect(res.status).toBe(201);
      expect(enforce).toHaveBeenCalledTimes(1);
      expect(enforce).toHaveBeenCalledWith({ id: user.id, name: user.name }, "size:repos:all");
    } finally {
      enforce.mockRestore();
    }
  });

  it("asks for the owner the route names (an organization), and for the one a handler names", async () => {
    const org = await t.services.users.getByName(`${user.name}-org`);
    const enforce = vi.spyOn(t.services.quota, "enforce");
    try {
      expect((await call("POST", `/test/quota/orgs/${org.name}/assets`)).status).toBe(201);
      expect((await call("POST", `/test/quota/forks/${org.name}`)).status).toBe(201);
      expect(enforce.mock.calls).toEqual([
        [{ id: org.id, name: org.name }, "size:assets:attachments:releases"],
        [{ id: org.id, name: org.name }, "size:repos:all"],
      ]);
    } finally {
      enforce.mockRestore();
    }
  });

  it("runs after validation (422 wins, as in Forgejo) and not at all when quota is disabled", async () => {
    const enforce = vi.spyOn(t.services.quota, "enforce");
    try {
      expect((await call("POST", "/test/quota/repos", { name: "" })).status).toBe(422);
      expect((await call("POST", "/test/quota/repos", { name: "x" }, false)).status).toBe(201);
      expect(enforce).not.toHaveBeenCalled();
    } finally {
      enforce.mockRestore();
    }
  });
  it("is asked where Forgejo enforces on the repository routes, and still rejects nothing", async () => {
    const org = await t.services.users.getByName(`${user.name}-org`);
    const enforce = vi.spyOn(t.services.quota, "enforce");
    try {
      const mine = await t.call("POST", "/user/repos", {
        token: user.token,
        body: { name: uniqueName("mine") },
      });
      expect(mine.status).toBe(201);
      const theirs = await t.call("POST", `/orgs/${org.name}/repos`, {
        token: user.token,
        body: { name: uniqueName("org-repo") },
      });
      expect(theirs.status).toBe(201);
      // Forgejo: the quota check passes before the clone address is refused.
      const migrate = await t.call("POST", "/repos/migrate", {
        token: user.token,
        body: { clone_addr: "http://127.0.0.1:1/x.git", repo_name: uniqueName("m"), repo_owner: org.name },
      });
      expect(migrate.status).toBe(422);
      expect(enforce.mock.calls).toEqual([
        [{ id: user.id, name: user.name }, "size:repos:all"],
        [{ id: org.id, name: org.name }, "size:repos:all"],
        [{ id: org.id, name: org.name }, "size:repos:all"],
      ]);
    } finally {
      enforce.mockRestore();
    }
  });
  it("with [quota] ENFORCE, refuses branch, tag and file writes with 413 for the repository's owner over quota", async () => {
    const org = await t.services.users.getByName(`${user.name}-org`);
    const free = await t.user();
    const repoOf = async (token: string, path: string) => {
      const res = await t.call("POST", path, { token, body: { name: uniqueName("w"), auto_init: true } });
      expect(res.status).toBe(201);
      return res.json.full_name as string;
    };
    // The organization is over quota (its caller too, but the write counts against the owner).
    const full = await repoOf(user.token, `/orgs/${org.name}/repos`);
    const within = await repoOf(free.token, "/user/repos");
    expect(await t.services.quota.check(free.id, "size:repos:all")).toBe(true);
    const content = Buffer.from("bytes\n").toString("base64");
    const writes = (sha: string) =>
      [
        ["POST", "branches", { new_branch_name: "b1" }, 201],
        ["POST", "tags", { tag_name: "v1" }, 201],
        ["POST", "contents", { files: [{ operation: "create", path: "a.txt", content }] }, 201],
        ["POST", "contents/b.txt", { content }, 201],
        ["PUT", "contents/b.txt", { content: Buffer.from("more").toString("base64"), sha }, 200],
        ["DELETE", "contents/a.txt", { sha }, 200],
      ] as const;
    // `[quota] ENFORCE` on: an app over services that enforce (same database), the hook watched.
    const { settings } = t.services.ctx;
    const enforcing = createServices({
      ...t.services.ctx,
      settings: { ...settings, quota: { ...settings.quota, enforce: true } },
    });
    const app = createApp({ services: enforcing, settings: enforcing.ctx.settings, logger: silentLogger });
    const send = async (method: string, path: string, token: string, body: unknown) =>
      readResult(
        await app.request(`http://kiln.test/api/v1${path}`, {
          method,
          headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const enforce = vi.spyOn(enforcing.quota, "enforce");
    try {
      for (const [method, path, body] of writes("0".repeat(40))) {
        const res = await send(method, `/repos/${full}/${path}`, user.token, body);
        expect([method, path, res.status, res.json]).toEqual([
          method,
          path,
          413,
          { message: "quota exceeded", url: expect.any(String), user_id: org.id, username: org.name },
        ]);
      }
      const file = (name: string) =>
        t.call("GET", `/repos/${within}/contents/${name}`, { token: free.token });
      for (const [method, path, body, status] of writes("")) {
        const sha = method === "PUT" ? (await file("b.txt")).json.sha : (await file("a.txt")).json.sha;
        const res = await send(
          method,
          `/repos/${within}/${path}`,
          free.token,
          "sha" in body ? { ...body, sha } : body,
        );
        expect([method, path, res.status]).toEqual([method, path, status]);
      }
      expect(enforce.mock.calls).toEqual([
        ...writes("").map(() => [{ id: org.id, name: org.name }, "size:repos:all"]),
        ...writes("").map(() => [{ id: free.id, name: free.name }, "size:repos:all"]),
      ]);
    } finally {
      enforce.mockRestore();
    }
  });
});
