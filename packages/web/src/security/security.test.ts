import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../test/support.js";

/** The nonce of the page's script tag and the policy's script-src nonce. */
function nonces(html: string, policy: string): { tag: string | undefined; policy: string | undefined } {
  return {
    tag: /<script nonce="([^"]+)"/.exec(html)?.[1],
    policy: /script-src 'nonce-([^']+)'/.exec(policy)?.[1],
  };
}

describe.each(DIALECTS)("the pages' security on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
  });
  afterAll(() => t?.close());

  it("sends a nonce-only script policy, no framing and no sniffing, on pages and on error pages", async () => {
    const b = t.browser();
    const seen = new Set<string>();
    for (const [path, status] of [
      ["/", 200],
      ["/explore/users", 200],
      ["/user/login", 200],
      ["/no-such-account", 404],
      ["/a/b/c/d/e", 404],
    ] as const) {
      const res = await b.get(path);
      expect(res.status).toBe(status);
      const policy = res.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("form-action 'self'");
      expect(policy).not.toContain("unsafe-inline");
      expect(policy).not.toContain("unsafe-eval");
      const { tag, policy: fromPolicy } = nonces(res.html, policy);
      expect(tag).toBeDefined();
      expect(tag).toBe(fromPolicy);
      seen.add(tag ?? "");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      // No inline script at all: every <script> is an external file carrying the nonce.
      expect(res.html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
      // The error pages are in the layout too.
      expect(res.html).toContain('class="site-header"');
    }
    // A fresh nonce per response.
    expect(seen.size).toBe(5);
  });

  it("answers 500 with the error page and no internals", async () => {
    const user = await t.user();
    const b = await t.signedIn(user);
    const broken = t.services.feeds.ofUser;
    t.services.feeds.ofUser = () => Promise.reject(new Error("secret internals: db at 10.1.2.3"));
    try {
      const res = await b.get("/");
      expect(res.status).toBe(500);
      expect(res.html).toContain("Internal server error");
      expect(res.html).not.toContain("secret internals");
      expect(res.headers.get("content-security-policy")).toContain("nonce-");
    } finally {
      t.services.feeds.ofUser = broken;
    }
  });

  it("sets the session cookie HttpOnly and SameSite=Lax, not Secure under an http ROOT_URL", async () => {
    const b = t.browser();
    const form = await b.get("/user/login");
    const first = form.headers.get("set-cookie") ?? "";
    expect(first).toMatch(/^i_like_gitea=/);
    expect(first).toMatch(/HttpOnly/);
    expect(first).toMatch(/SameSite=Lax/);
    expect(first).toMatch(/Path=\//);
    expect(first).not.toMatch(/Secure/);
    const user = await t.user();
    const signedIn = await b.post("/user/login", {
      _csrf: form.field("_csrf"),
      user_name: user.name,
      password: "password1",
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/");
    const session = signedIn.headers.get("set-cookie") ?? "";
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    // A new cookie value at sign-in: one planted before it is worth nothing.
    expect(session.split(";")[0]).not.toBe(first.split(";")[0]);
  });

  it("refuses a sign-in post without the token, with a wrong one, and with another cookie's", async () => {
    const user = await t.user();
    const a = t.browser();
    const formA = await a.get("/user/login");
    const b = t.browser();
    await b.get("/user/login");
    const fields = { user_name: user.name, password: "password1" };
    for (const token of [undefined, "forged", formA.field("_csrf")]) {
      const res = await b.post("/user/login", token === undefined ? fields : { ...fields, _csrf: token });
      expect(res.status).toBe(400);
      expect(res.html).toContain("Invalid CSRF token");
      expect(res.headers.get("set-cookie") ?? "").not.toMatch(/HttpOnly.*Max-Age=86400/);
    }
    // A post with no cookie at all is refused the same way.
    const bare = await t.browser().post("/user/login", { ...fields, _csrf: formA.field("_csrf") });
    expect(bare.status).toBe(400);
  });

  it("signs out only with the token, and a signed-out cookie is worth nothing", async () => {
    const user = await t.user();
    const b = await t.signedIn(user);
    const home = await b.get("/");
    expect(home.html).toContain(`Signed in as <strong>${user.name}</strong>`);
    const cookie = b.cookieHeader();
    expect((await b.post("/user/logout", {})).status).toBe(400);
    expect((await b.get("/notifications")).status).toBe(200);
    const out = await b.post("/user/logout", { _csrf: home.field("_csrf") });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    const replay = await t.app.request("http://kiln.test/notifications", { headers: { cookie } });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/user/login?redirect_to=%2Fnotifications");
  });

  it("refuses a form larger than the limit with 413 before reading it", async () => {
    const b = t.browser();
    const form = await b.get("/user/login");
    const res = await b.post("/user/login", { _csrf: form.field("_csrf"), user_name: "x".repeat(70_000) });
    expect(res.status).toBe(413);
  });
});

describe("the session cookie under an https ROOT_URL", () => {
  it("is Secure", async () => {
    const t = await openWebTestApp("pglite", {
      server: { rootUrl: "https://forge.example/kiln/" },
      session: { cookieName: "i_like_gitea", sessionLifeTime: 86400, cookieSecure: true },
    });
    try {
      const b = t.browser();
      const form = await b.get("/user/login");
      const cookie = form.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/Path=\/kiln\//);
      // Links and forms carry the site's path.
      expect(form.html).toContain('action="/kiln/user/login"');
      const user = await t.user();
      const signedIn = await b.post("/user/login", {
        _csrf: form.field("_csrf"),
        user_name: user.name,
        password: "password1",
      });
      expect(signedIn.location).toBe("/kiln/");
      expect(signedIn.headers.get("set-cookie")).toMatch(/; Secure/);
    } finally {
      await t.close();
    }
  });
});
