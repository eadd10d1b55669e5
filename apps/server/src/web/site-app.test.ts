import { RESERVED_USERNAMES } from "@kiln/domain";
import { enabledPages } from "@kiln/web";
import { TrieRouter } from "hono/router/trie-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSiteTestApp, type SiteTestApp } from "../../test/site-support.js";

/** A concrete path for a route pattern: each parameter and wildcard gets an ordinary value. */
function sample(pattern: string): string {
  return pattern
    .replace(/:(\w+)\{[^}]*\}/g, "x1")
    .replace(/:owner|:username/g, "someone")
    .replace(/:repo|:reponame/g, "project")
    .replace(/:\w+/g, "x1")
    .replace(/\*/g, "x1");
}

/** Whether a response came from the pages: every page answer carries a nonce policy, no API answer does. */
const fromPages = (res: Response) =>
  /script-src 'nonce-/.test(res.headers.get("content-security-policy") ?? "");

describe("one port for the API and the pages", () => {
  let t: SiteTestApp;
  beforeAll(async () => {
    t = await openSiteTestApp("pglite");
  });
  afterAll(() => t?.close());

  it("sends every page's path to the pages: no API, git or LFS route takes it", async () => {
    const failures: string[] = [];
    for (const page of enabledPages(t.settings)) {
      const path = sample(page.path);
      const res = await t.app.request(`http://kiln.test${path}`, {
        method: page.method.toUpperCase(),
        ...(page.method === "post"
          ? { body: "", headers: { "content-type": "application/x-www-form-urlencoded" } }
          : {}),
      });
      if (!fromPages(res))
        failures.push(`${page.method} ${page.path} (${path}) → ${res.status} from the API`);
    }
    expect(failures).toEqual([]);
  });

  it("never lets a page take a path of the API, git, LFS or the other routes, except under a reserved name", () => {
    const pages = new TrieRouter<string>();
    for (const page of enabledPages(t.settings)) pages.add(page.method.toUpperCase(), page.path, page.path);
    const failures: string[] = [];
    // The walk covers the API's operations and the mounts beside them (git, LFS, avatars, …).
    const paths = new Set(t.app.routes.map((r) => r.path));
    for (const mount of ["/:owner/:repo/info/refs", "/:owner/:repo/info/lfs/objects/batch", "/avatars/:hash"])
      expect(paths).toContain(mount);
    expect(paths.size).toBeGreaterThan(300);
    for (const route of t.app.routes) {
      if (route.method === "ALL" && route.path === "/*") continue;
      const path = sample(route.path);
      const methods = route.method === "ALL" ? ["GET", "POST"] : [route.method];
      for (const method of methods) {
        const [matches] = pages.match(method, path);
        for (const [page] of matches) {
          // A page whose first segment is an account name matches only where that segment is
          // reserved: no account, so no page, can be called `api`, `avatars`, `.well-known`, …
          const first = path.split("/")[1] ?? "";
          const accountSegment = /^\/:(username|org)\b/.test(page);
          if (!(accountSegment && RESERVED_USERNAMES.has(first.toLowerCase())))
            failures.push(`${method} ${route.path} (${path}) is also the page ${page}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers the API's paths from the API and the rest from the pages", async () => {
    const api = await t.app.request("http://kiln.test/api/v1/version");
    expect(api.status).toBe(200);
    expect(fromPages(api)).toBe(false);
    const missingApi = await t.app.request("http://kiln.test/api/v1/no/such/route");
    expect(missingApi.status).toBe(404);
    expect(await missingApi.json()).toMatchObject({ message: "The target couldn't be found." });
    const git = await t.app.request("http://kiln.test/someone/project.git/info/refs?service=git-upload-pack");
    expect(git.status).toBe(401);
    expect(fromPages(git)).toBe(false);
    const swagger = await t.app.request("http://kiln.test/swagger.v1.json");
    expect(swagger.headers.get("content-type")).toMatch(/json/);
    const page = await t.app.request("http://kiln.test/explore/repos");
    expect(page.status).toBe(200);
    expect(fromPages(page)).toBe(true);
    const missingPage = await t.app.request("http://kiln.test/someone/project/no/such/page");
    expect(missingPage.status).toBe(404);
    expect(fromPages(missingPage)).toBe(true);
    expect(await missingPage.text()).toContain("Page not found");
  });
});
