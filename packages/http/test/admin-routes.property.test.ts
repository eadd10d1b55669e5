import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enabledRoutes } from "../src/app.js";
import type { AnyRoute } from "../src/route.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

/**
 * Every `site-admin` route of the route table (so a new admin route is covered the day it is
 * registered), called by everyone but a site admin with a token carrying the `admin` scope:
 * anonymous callers get 401, signed-in users (plain, restricted, a `public-only` token) and an
 * admin's token without the `admin` scope get 403, and nothing changes. Path parameters name real
 * things (the admin's own account, a real cron task), so a wrongly admitted call would act.
 */
describe.each(DIALECTS)("site-admin routes against everyone else on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  const actors: { name: string; token?: string; expected: number }[] = [];
  const adminRoutes = (t: TestApp): AnyRoute[] =>
    enabledRoutes(t.settings).filter((r) => r.access === "site-admin");

  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    user = await t.user();
    const restricted = await t.user();
    await t.services.users.adminEdit(await t.services.users.getByName(restricted.name), { restricted: true });
    const publicOnly = await t.services.tokens.create(await t.services.users.getByName(user.name), "po", [
      "public-only",
      "all",
    ]);
    const unscoped = await t.services.tokens.create(
      await t.services.users.getByName(admin.name),
      "no-admin",
      ["read:user", "write:repository"],
    );
    await t.call("POST", "/user/repos", { token: admin.token, body: { name: "kept" } });
    actors.push(
      { name: "anonymous", expected: 401 },
      { name: "outsider", token: user.token, expected: 403 },
      { name: "restricted", token: restricted.token, expected: 403 },
      { name: "public-only", token: publicOnly.secret, expected: 403 },
      { name: "admin without the admin scope", token: unscoped.secret, expected: 403 },
    );
  });
  afterAll(() => t?.close());

  /** A concrete path for a route: parameters name real things where the route table has them. */
  function pathOf(route: AnyRoute): string {
    const values: Record<string, string> = {
      username: admin.name,
      owner: admin.name,
      repo: "kept",
      task: "update_repository_size",
      id: "1",
    };
    return route.path.replace(/\{(\w+)\*?\}/g, (_, name: string) => values[name] ?? "1");
  }

  it("covers the admin routes", () => {
    const ids = adminRoutes(t).map((r) => r.operationId);
    for (const id of [
      "adminCronList",
      "adminCronRun",
      "adminGetAllOrgs",
      "adminCreateOrg",
      "adminCreateRepo",
      "adminRenameUser",
      "adminGetAllEmails",
      "adminSearchEmails",
      "adminUnadoptedList",
      "adminAdoptRepository",
      "adminDeleteUnadoptedRepository",
      "adminEditUser",
      "adminDeleteUser",
    ]) {
      expect(ids).toContain(id);
    }
  });

  it("refuses every site-admin route to everyone else and changes nothing", async () => {
    const failures: string[] = [];
    for (const route of adminRoutes(t)) {
      const method = route.method.toUpperCase();
      const path = pathOf(route);
      for (const actor of actors) {
        const res = await t.call(method, path, {
          ...(actor.token ? { token: actor.token } : {}),
          ...(method === "GET" || method === "DELETE" ? {} : { body: { name: "x", username: "x" } }),
        });
        if (res.status !== actor.expected) failures.push(`${actor.name}: ${method} ${path} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect((await t.call("GET", `/users/${admin.name}`)).json.login).toBe(admin.name);
    expect((await t.call("GET", `/repos/${admin.name}/kept`)).status).toBe(200);
    const cron = (await t.call("GET", "/admin/cron", { token: admin.token })).json;
    expect(cron.every((task: { exec_times: number }) => task.exec_times === 0)).toBe(true);
  });
});
