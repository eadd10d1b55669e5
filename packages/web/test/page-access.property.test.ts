import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageRoute } from "../src/page-route.js";
import { enabledPages } from "../src/routes/index.js";
import type { Browser, Page } from "./browser.js";
import { openWebTestApp, type WebTestApp } from "./support.js";
import { buildWorld, VISITORS, type Visitor, WORLD_RELEASE, type World } from "./world.js";

/**
 * Walks every page of the route table (`enabledPages`, with each page's declared variants) as an
 * anonymous visitor, an outsider and a restricted user, aimed at every account, organization and
 * repository of the world: no page answers 5xx, a page about something the visitor may not see
 * is 404 (or, for pages that need a session, a redirect to the sign-in page), and no answer shows
 * the name of anything hidden from the visitor. A page added to the table is walked the day it is
 * added; a parameter the filler does not know fails the generator test below.
 *
 * There is no `public-only` visitor: that is a property of access tokens, and a cookie session
 * carries every scope of its user (as a password does).
 */

/** Puts `value` for the parameter `:name` of a path, with its pattern (`:sha{[0-9a-f]{4,64}}`). */
function fillParam(path: string, name: string, value: string): string {
  const at = path.indexOf(`:${name}`);
  if (at < 0) return path;
  let end = at + name.length + 1;
  if (path[end] === "{") {
    for (let depth = 0; end < path.length; end++) {
      if (path[end] === "{") depth++;
      else if (path[end] === "}" && --depth === 0) break;
    }
    end++;
  }
  return path.slice(0, at) + value + path.slice(end);
}

/**
 * The parameters of a repository's pages, for one repository: a ref path (`main`) of kind
 * `branch` (for `/src`, the root and the README.md every world repository starts with; for
 * `/raw` and `/media`, the README), the head of `main`, the README's blob, the number of its issue "worldissue" (its
 * pull request "worldpull" on `/pulls/` paths), its release, that release's asset and its wiki's
 * Home page. A parameter with several values gives one request per value.
 */
function repoFilling(
  world: World,
  route: PageRoute,
  r: { owner: string; name: string },
  extra: readonly string[],
) {
  const key = `${r.owner}/${r.name}`;
  const thread = world.threads.find((t) => t.owner === r.owner && t.name === r.name);
  const index = route.path.includes("/pulls/") ? thread?.pull : thread?.issue;
  const values: Record<string, readonly string[] | undefined> = {
    kind: ["branch"],
    refpath: ["main"],
    rest: route.path.includes("/src/") ? ["main/README.md", "main"] : ["main/README.md"],
    archive: ["main.zip"],
    sha: [world.history.heads.get(key) ?? ""].filter(Boolean),
    blob: [world.history.readmes.get(key) ?? ""].filter(Boolean),
    index: index === undefined ? undefined : [String(index)],
    tag: [WORLD_RELEASE.tag],
    name: [WORLD_RELEASE.asset],
    page: [WORLD_RELEASE.wikiPage],
  };
  let paths = [route.path.replace(":username", r.owner).replace(":reponame", r.name)];
  for (const name of extra) {
    const options = values[name];
    if (!options || options.length === 0) return [];
    paths = paths.flatMap((path) => options.map((value) => fillParam(path, name, value)));
  }
  return paths.map((path) => ({ path, targets: [r.owner, r.name] }));
}

/** What a route parameter is filled with, by name. */
function fillings(route: PageRoute, world: World): { path: string; targets: string[] }[] {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? "");
  if (names.length === 0) return [{ path: route.path, targets: [] }];
  if (names.length > 2 && names[0] === "username" && names[1] === "reponame") {
    return world.repos.flatMap((r) => repoFilling(world, route, r, names.slice(2)));
  }
  if (names.join(",") === "username,reponame") {
    return world.repos.map((r) => ({
      path: route.path.replace(":username", r.owner).replace(":reponame", r.name),
      targets: [r.owner, r.name],
    }));
  }
  if (names.join(",") === "username") {
    return world.accounts.map((a) => ({ path: route.path.replace(":username", a), targets: [a] }));
  }
  if (names.join(",") === "org") {
    return world.orgs.map((o) => ({ path: route.path.replace(":org", o), targets: [o] }));
  }
  return [];
}

/** Every request the walk sends: each filling of each `get` page, bare and with each variant. */
function requests(world: World, routes: readonly PageRoute[]) {
  return routes
    .filter((r) => r.method === "get")
    .flatMap((route) =>
      fillings(route, world).flatMap(({ path, targets }) =>
        ["", ...(route.variants ?? [])].map((query) => ({
          route,
          path: query ? `${path}?${query}` : path,
          targets,
        })),
      ),
    );
}

describe.each(DIALECTS)("every page against hostile visitors on %s", (dialect) => {
  let t: WebTestApp;
  let world: World;
  let routes: PageRoute[];
  const browsers = new Map<Visitor | "admin", Browser>();

  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    world = await buildWorld(t);
    routes = enabledPages(t.settings);
    browsers.set("anonymous", t.browser());
    browsers.set("outsider", await t.signedIn(world.visitors.outsider));
    browsers.set("restricted", await t.signedIn(world.visitors.restricted));
    browsers.set("admin", await t.signedIn(world.admin));
  }, 300_000);
  afterAll(() => t?.close());

  it("fills every parameter of every page, and the site admin opens each request", async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method === "get")) {
      if (fillings(route, world).length === 0) failures.push(`${route.path}: no filler for its parameters`);
    }
    const admin = browsers.get("admin")!;
    for (const { path, targets } of requests(world, routes)) {
      const res = await admin.get(path);
      // A page about a thing of the world must open; a page without parameters may redirect (the
      // TOTP step without a half-open session) or refuse (the authorization endpoint without a client).
      const ok =
        targets.length > 0 ? res.status === 200 : res.status < 400 || path === "/login/oauth/authorize";
      if (!ok) failures.push(`admin GET ${path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(VISITORS)("as %s: shows nothing hidden, 404 for what is, never 5xx", async (visitor) => {
    const browser = browsers.get(visitor)!;
    const hidden = world.secrets.filter((s) => s.hiddenFrom.has(visitor));
    const failures: string[] = [];
    const judge = (path: string, route: PageRoute, targets: string[], res: Page) => {
      if (res.status >= 500) failures.push(`${visitor} GET ${path} → ${res.status}`);
      const aimedAtHidden = targets.some((name) => hidden.some((s) => s.name === name));
      const toSignIn = res.status === 303 && res.location.startsWith("/user/login");
      if (aimedAtHidden && res.status !== 404 && !(route.access === "signed-in" && toSignIn)) {
        failures.push(`${visitor} GET ${path} → ${res.status}, expected 404`);
      }
      const shown = `${res.html}\n${res.location}`;
      for (const secret of hidden) {
        if (path.includes(secret.name)) continue;
        if (shown.includes(secret.name)) failures.push(`${visitor} GET ${path} shows hidden ${secret.name}`);
      }
    };
    for (const { route, path, targets } of requests(world, routes)) {
      judge(path, route, targets, await browser.get(path));
    }
    expect(failures).toEqual([]);
  });

  it("refuses every form post without its CSRF token, for a signed-in user", async () => {
    const failures: string[] = [];
    const outsider = browsers.get("outsider")!;
    for (const route of routes.filter((r) => r.method === "post" && !r.csrfExempt)) {
      for (const { path } of fillings(route, world)) {
        const res = await outsider.post(path, { _csrf: "forged" });
        if (res.status !== 400) failures.push(`POST ${path} without a valid token → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    // Still signed in: a refused post changed nothing (the sign-out among them did not sign out).
    expect((await outsider.get("/notifications")).status).toBe(200);
  });
});
