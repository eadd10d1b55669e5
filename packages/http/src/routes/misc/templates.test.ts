import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe("gitignore and label templates", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp("pglite");
  });
  afterAll(() => t?.close());

  it("lists GitHub's .gitignore templates and gives one's text", async () => {
    const list = await t.call("GET", "/gitignore/templates");
    expect(list.status).toBe(200);
    expect(list.json).toEqual(
      expect.arrayContaining(["Go", "Node", "Python", "Rust", "macOS", "VisualStudioCode"]),
    );
    expect(list.json.length).toBeGreaterThan(100);
    const node = await t.call("GET", "/gitignore/templates/Node");
    expect(node.status).toBe(200);
    expect(node.json.name).toBe("Node");
    expect(node.json.source).toContain("node_modules/");
    expect((await t.call("GET", "/gitignore/templates/NoSuchThing")).status).toBe(404);
    expect((await t.call("GET", "/gitignore/templates/node")).status).toBe(404);
    expect((await t.call("GET", "/gitignore/templates/..%2Fpackage")).status).toBe(404);
  });

  it("lists the label sets and their labels, colors without #", async () => {
    const list = await t.call("GET", "/label/templates");
    expect(list.json).toEqual(["Advanced", "Default"]);
    const labels = await t.call("GET", "/label/templates/Advanced");
    expect(labels.status).toBe(200);
    expect(labels.json).toContainEqual({
      name: "Kind/Bug",
      color: "ee0701",
      description: "Something is not working",
      exclusive: true,
    });
    expect((await t.call("GET", "/label/templates/constructor")).status).toBe(404);
  });
});

describe.each(DIALECTS)("repositories started from templates on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
  });
  afterAll(() => t?.close());

  it("commits the chosen .gitignore templates and creates the label set", async () => {
    const made = await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: "app", auto_init: true, gitignores: "Node,Go", issue_labels: "Default", license: "MIT" },
    });
    expect(made.status).toBe(201);
    const file = await t.call("GET", `/repos/${owner.name}/app/raw/.gitignore`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(file.text.startsWith("# ---> Node\n")).toBe(true);
    expect(file.text).toContain("# ---> Go\n");
    expect(file.text).toContain("node_modules/");
    expect((await t.call("GET", `/repos/${owner.name}/app/raw/LICENSE`, { token: owner.token })).status).toBe(
      200,
    );
    const labels = await t.call("GET", `/repos/${owner.name}/app/labels?limit=50`, { token: owner.token });
    expect(labels.json.map((l: { name: string }) => l.name)).toContain("good first issue");
    expect(labels.json).toHaveLength(9);
  });

  it("refuses unknown templates with 422 and creates nothing", async () => {
    for (const body of [
      { name: "bad1", auto_init: true, gitignores: "Node,NoSuch" },
      { name: "bad2", issue_labels: "NoSuch" },
    ]) {
      const res = await t.call("POST", "/user/repos", { token: owner.token, body });
      expect(res.status).toBe(422);
      expect(res.json.message).toMatch(/invalid (gitignore|label) template/);
      expect((await t.call("GET", `/repos/${owner.name}/${body.name}`, { token: owner.token })).status).toBe(
        404,
      );
    }
  });
});
