import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { StaticMemoRouter } from "./router.js";

function app() {
  const a = new Hono({ router: new StaticMemoRouter() });
  a.get("/users/search", (c) => c.text("search"));
  a.get("/users/:name", (c) => c.text(`user ${c.req.param("name")}`));
  a.get("/users/:name/repos", (c) => c.text(`repos of ${c.req.param("name")}`));
  a.post("/users/search", (c) => c.text("post search"));
  a.all("/anything", (c) => c.text(`any ${c.req.method}`));
  return a;
}

describe("StaticMemoRouter", () => {
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

  it("matches the first registered route when a parameter route comes before a static one", async () => {
    const a = new Hono({ router: new StaticMemoRouter() });
    a.get("/items/:id", (c) => c.text(`item ${c.req.param("id")}`));
    a.get("/items/new", (c) => c.text("new"));
    for (let round = 0; round < 2; round++) {
      expect(await (await a.request("/items/new")).text()).toBe("item new");
    }
  });
});
