import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("license templates on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
  });
  afterAll(() => t?.close());

  it("lists every SPDX license with its URL, sorted by identifier", async () => {
    const res = await t.call("GET", "/licenses");
    expect(res.status).toBe(200);
    const keys = (res.json as { key: string }[]).map((l) => l.key);
    expect(keys.length).toBeGreaterThan(500);
    expect(keys).toContain("MIT");
    expect(keys).toContain("Apache-2.0");
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(res.json).toContainEqual({ key: "MIT", name: "MIT", url: "http://kiln.test/api/v1/licenses/MIT" });
  });

  it("gives one license's text, and 404 for a name that is none", async () => {
    const mit = await t.call("GET", "/licenses/MIT");
    expect(mit.status).toBe(200);
    expect(mit.json).toMatchObject({ key: "MIT", name: "MIT", url: "http://kiln.test/api/v1/licenses/MIT" });
    expect(mit.json.body).toContain("Permission is hereby granted, free of charge");
    expect(mit.json.implementation).toMatch(/^Create a text file/);
    expect((await t.call("GET", "/licenses/No-Such-License")).status).toBe(404);
    expect((await t.call("GET", "/licenses/..%2Fspdx")).status).toBe(404);
  });

  it("commits the chosen license as LICENSE when a repository is created with auto_init", async () => {
    const created = await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: "licensed", auto_init: true, license: "MIT" },
    });
    expect(created.status).toBe(201);
    const file = await t.call("GET", `/repos/${owner.name}/licensed/raw/LICENSE`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(file.text).toContain(`Copyright (c) ${new Date().getFullYear()} ${owner.name}`);
    const readme = await t.call("GET", `/repos/${owner.name}/licensed/raw/README.md`, { token: owner.token });
    expect(readme.status).toBe(200);
  });

  it("refuses a license that is not in the catalogue with 422, creating nothing", async () => {
    const refused = await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: "unlicensed", auto_init: true, license: "Made-Up-1.0" },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe("invalid license: Made-Up-1.0");
    expect((await t.call("GET", `/repos/${owner.name}/unlicensed`, { token: owner.token })).status).toBe(404);
  });
});
