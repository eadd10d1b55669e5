import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../test/support.js";

describe.each(DIALECTS)("the web app on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
  });
  afterAll(() => t?.close());

  it("serves the home page", async () => {
    const res = await t.browser().get("/");
    expect(res.status).toBe(200);
    console.log(res.html.slice(0, 3000));
  });
});
