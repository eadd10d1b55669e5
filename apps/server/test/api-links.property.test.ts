import { actorFor } from "@kiln/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSiteTestApp, type SiteTestApp, type SiteUser } from "./site-support.js";

/**
 * Every link the API hands out opens on the same site: over a populated instance (a public and a
 * private repository, each with an issue and a comment, a pull request, commits, a milestone, a
 * release with an asset and a wiki page), the API's answers are swept as the owner, and each
 * `html_url`, `url`, `browser_download_url`, `zipball_url` and `tarball_url` on this site is
 * opened through the one app `kiln web` serves: the owner gets 200 (API `url`s with the owner's
 * token, everything else with the owner's browser session), and an outsider and an anonymous
 * visitor get 404 for whatever is in the private repository, exactly as through the API, and 200
 * for the rest.
 */

const LINK_KEYS = new Set(["html_url", "url", "browser_download_url", "zipball_url", "tarball_url"]);

/** Every link-valued field of a JSON answer, however deep. */
function linksOf(json: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(json)) for (const item of json) linksOf(item, out);
  else if (json && typeof json === "object")
    for (const [key, value] of Object.entries(json)) {
      if (LINK_KEYS.has(key) && typeof value === "string" && value !== "") out.add(value);
      else linksOf(value, out);
    }
  return out;
}

describe("the API's links open on the site", () => {
  let t: SiteTestApp;
  let owner: SiteUser;
  let outsider: SiteUser;
  const cookies = new Map<string, string>();
  const links = new Set<string>();

  const open = (url: string, who: SiteUser | null) => {
    const u = new URL(url);
    const headers: Record<string, string> = {};
    if (who && u.pathname.startsWith("/api/")) headers.authorization = `token ${who.token}`;
    else if (who) headers.cookie = cookies.get(who.name) ?? "";
    return t.app.request(u.href, { headers, redirect: "manual" });
  };

  beforeAll(async () => {
    t = await openSiteTestApp("pglite");
    owner = await t.user({ name: "link-owner" });
    outsider = await t.user({ name: "link-outsider" });
    for (const who of [owner, outsider]) {
      const user = await t.services.users.findByName(who.name);
      if (!user) throw new Error(`no user ${who.name}`);
      cookies.set(
        who.name,
        `${t.settings.session.cookieName}=${await t.services.webSessions.start(user, false, {})}`,
      );
    }
    const o = owner.name;
    for (const [name, isPrivate] of [
      ["links-pub", false],
      ["links-priv", true],
    ] as const) {
      const ok = async (method: string, path: string, body: unknown) => {
        const res = await t.call(method, path, { token: owner.token, body });
        if (res.status >= 300)
          throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.json)}`);
        return res.json;
      };
      await ok("POST", "/user/repos", { name, auto_init: true, private: isPrivate });
      const base = `/repos/${o}/${name}`;
      const milestone = await ok("POST", `${base}/milestones`, { title: "M1" });
      const issue = await ok("POST", `${base}/issues`, { title: "An issue", milestone: milestone.id });
      await ok("POST", `${base}/issues/${issue.number}/comments`, { body: "A comment" });
      await ok("POST", `${base}/contents/feature.txt`, {
        content: Buffer.from("feature").toString("base64"),
        new_branch: "feature",
      });
      await ok("POST", `${base}/pulls`, { title: "A pull", head: "feature", base: "main" });
      const release = await ok("POST", `${base}/releases`, { tag_name: "v1.0", body: "notes" });
      const access = await t.services.access.repo(actorFor((await t.services.users.findByName(o))!), o, name);
      await t.services.attachments.upload(
        access,
        { releaseId: release.id },
        {
          name: "tool.tar.gz",
          body: (async function* () {
            yield new TextEncoder().encode("tool");
          })(),
        },
      );
      await ok("POST", `${base}/wiki/new`, {
        title: "Home",
        content_base64: Buffer.from("wiki").toString("base64"),
      });
    }
    const sweep = [`/users/${o}`, `/users/${o}/repos`, "/user/repos"];
    for (const name of ["links-pub", "links-priv"]) {
      const base = `/repos/${o}/${name}`;
      sweep.push(
        base,
        `${base}/issues?state=all&type=issues`,
        `${base}/issues/1`,
        `${base}/issues/comments`,
        `${base}/pulls?state=all`,
        `${base}/pulls/2`,
        `${base}/commits?limit=5`,
        `${base}/releases`,
        `${base}/releases/tags/v1.0`,
        `${base}/milestones?state=all`,
        `${base}/wiki/pages`,
        `${base}/wiki/page/Home`,
        `${base}/branches`,
        `${base}/tags`,
      );
    }
    for (const path of sweep) {
      const res = await t.call("GET", path, { token: owner.token });
      if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}`);
      linksOf(res.json, links);
    }
  }, 300_000);
  afterAll(() => t?.close());

  it("opens every link as the owner, and hides the private repository's from others", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const url of links) {
      const u = new URL(url);
      if (u.origin !== "http://kiln.test") continue;
      const path = u.pathname;
      const mine = await open(url, owner);
      checked++;
      if (mine.status !== 200) failures.push(`owner GET ${path} → ${mine.status}`);
      const hidden = /\/links-priv(\/|$|\.)/.test(path);
      for (const who of [outsider, null]) {
        const status = (await open(url, who)).status;
        const expected = hidden ? 404 : 200;
        if (status !== expected)
          failures.push(`${who?.name ?? "anonymous"} GET ${path} → ${status}, expected ${expected}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});
