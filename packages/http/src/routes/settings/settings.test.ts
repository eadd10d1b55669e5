import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../../test/support.js";

describe("instance settings over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp("pglite", {
      repository: { disableMirrors: true, maxCreationLimit: 7 },
      ui: { reactions: ["+1", "heart"] },
      api: { maxResponseItems: 40 },
      attachment: { maxFiles: 3 },
    });
  });
  afterAll(() => t?.close());

  it("exposes the configured values anonymously", async () => {
    expect((await t.call("GET", "/settings/api")).json).toEqual({
      max_response_items: 40,
      default_paging_num: 30,
      default_git_trees_per_page: 1000,
      default_max_blob_size: 10485760,
    });
    expect((await t.call("GET", "/settings/ui")).json.allowed_reactions).toEqual(["+1", "heart"]);
    expect((await t.call("GET", "/settings/repository")).json).toMatchObject({
      mirrors_disabled: true,
      http_git_disabled: false,
      max_creation_limit: 7,
    });
    expect((await t.call("GET", "/settings/attachment")).json).toMatchObject({
      enabled: true,
      max_files: 3,
      max_size: 2048,
    });
    expect((await t.call("GET", "/version")).json.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
