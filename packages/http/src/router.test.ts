import { defaultSettings } from "@kiln/domain";
import { createServices, silentLogger } from "@kiln/service";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { KilnRouter } from "./router.js";

function app() {
  const a = new Hono({ router: new KilnRouter() });
  a.get("/users/search", (c) => c.text("search"));
  a.get("/users/:name", (c) => c.text(`user ${c.req.param("name")}`));
  a.get("/users/:name/repos", (c) => c.text(`repos of ${c.req.param("name")}`));
  a.post("/users/search", (c) => c.text("post search"));
  a.all("/anything", (c) => c.text(`any ${c.req.method}`));
  return a;
}

describe("KilnRouter", () => {
  it("answers static and parameter paths as Hono's own router does, on every request", async () => {
    const a = app();
    for (let round = 0; round < 3; round++) {
      expect(await (await a.request("/users/search")).text()).toBe("search");
      expect(await (await a.request("/users/search", { method: "POST" })).text()).toBe("post search");
      expect(await (await a.request("/users/alice")).text()).toBe("user alice");
      expect(await (await a.request("/users/bob/repos")).text()).toBe("repos of bob");
      expect(await (await a.request("/anything", { method: "PATCH" })).text()).toBe("any PATCH");
      expect((await a.request("/users/search", { method: "DELETE" })).status).toBe(404);
      expect((await a.request("/nowhere")).status).toBe(404);
    }
  });

  it("routes the API apart from the rest: a route at the root never answers under /api/", async () => {
    const a = new Hono({ router: new KilnRouter() });
    a.get("/api/v1/repos/:owner/:repo", (c) => c.text(`repo ${c.req.param("owner")}/${c.req.param("repo")}`));
    a.get("/api/v1/version", (c) => c.text("version"));
    a.get("/:owner/:repo/info/refs", (c) => c.text(`refs of ${c.req.param("owner")}/${c.req.param("repo")}`));
    a.get("/*", (c) => c.text(`fallback ${c.req.path}`));
    expect(await (await a.request("/api/v1/repos/alice/tools")).text()).toBe("repo alice/tools");
    expect(await (await a.request("/api/v1/version")).text()).toBe("version");
    expect(await (await a.request("/alice/tools.git/info/refs")).text()).toBe("refs of alice/tools.git");
    expect(await (await a.request("/api/v1/info/refs")).text()).toBe("fallback /api/v1/info/refs");
    expect(await (await a.request("/elsewhere")).text()).toBe("fallback /elsewhere");
  });

  it("matches the first registered route when a parameter route comes before a static one", async () => {
    const a = new Hono({ router: new KilnRouter() });
    a.get("/items/:id", (c) => c.text(`item ${c.req.param("id")}`));
    a.get("/items/new", (c) => c.text("new"));
    for (let round = 0; round < 2; round++) {
      expect(await (await a.request("/items/new")).text()).toBe("item new");
    }
  });

  it("keeps registration order across routes a single regular expression cannot hold together", async () => {
    const a = new Hono({ router: new KilnRouter() });
    a.get("/api/v1/r/:o/issues/comments", (c) => c.text("all comments"));
    a.get("/api/v1/r/:o/issues/comments/:id", (c) => c.text(`comment ${c.req.param("id")}`));
    a.get("/api/v1/r/:o/issues/:index/comments", (c) => c.text(`comments of ${c.req.param("index")}`));
    a.get("/api/v1/r/:o/sub/check", (c) => c.text("check"));
    a.get("/api/v1/r/:o/sub/:user", (c) => c.text(`user ${c.req.param("user")}`));
    a.get("/api/v1/r/:o/later/:x", (c) => c.text(`later ${c.req.param("x")}`));
    a.get("/api/v1/r/:o/later/fixed", (c) => c.text("fixed"));
    for (let round = 0; round < 2; round++) {
      expect(await (await a.request("/api/v1/r/x/issues/comments")).text()).toBe("all comments");
      expect(await (await a.request("/api/v1/r/x/issues/comments/7")).text()).toBe("comment 7");
      expect(await (await a.request("/api/v1/r/x/issues/3/comments")).text()).toBe("comments of 3");
      expect(await (await a.request("/api/v1/r/x/sub/check")).text()).toBe("check");
      expect(await (await a.request("/api/v1/r/x/sub/alice")).text()).toBe("user alice");
      // The first registered wins, whichever layer it is in.
      expect(await (await a.request("/api/v1/r/x/later/fixed")).text()).toBe("later fixed");
      expect((await a.request("/api/v1/r/x/nothing/here")).status).toBe(404);
    }
    expect((a.router as KilnRouter<unknown>).engine).toBe("SmartRouter + RegExpRouter");
  });

  it("matches Kiln's API routes with regular expressions, not a walk of the route tree", async () => {
    const settings = {
      ...defaultSettings("/tmp/kiln-router-test"),
      quota: { ...defaultSettings("/tmp/kiln-router-test").quota, enabled: true },
    };
    const app = createApp({
      services: createServices({ db: null as never, settings, logger: silentLogger }),
      settings,
      logger: silentLogger,
    });
    expect((await app.request("/api/v1/version")).status).toBe(200);
    expect((await app.request("/api/v1/repos/someone/something/no-such-thing")).status).toBe(404);
    expect((app.router as KilnRouter<unknown>).engine).toBe("SmartRouter + RegExpRouter");
  });
});
