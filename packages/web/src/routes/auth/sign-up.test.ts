import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

describe.each(DIALECTS)("the sign-up page on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    await t.user({ name: "taken" });
  });
  afterAll(() => t?.close());

  it("registers, signs in and goes home; a refusal shows the form again, filled in", async () => {
    const b = t.browser();
    const form = await b.get("/user/sign_up");
    expect(form.status).toBe(200);
    const mismatch = await b.post("/user/sign_up", {
      _csrf: form.field("_csrf"),
      user_name: "newcomer",
      email: "newcomer@example.com",
      password: "password1",
      retype: "password2",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.html).toContain("The passwords do not match.");
    expect(mismatch.field("user_name")).toBe("newcomer");
    expect(mismatch.field("email")).toBe("newcomer@example.com");
    const taken = await b.post("/user/sign_up", {
      _csrf: form.field("_csrf"),
      user_name: "taken",
      email: "other@example.com",
      password: "password1",
      retype: "password1",
    });
    expect(taken.status).toBe(422);
    expect(taken.html).toContain("user already exists");
    const done = await b.post("/user/sign_up", {
      _csrf: form.field("_csrf"),
      user_name: "newcomer",
      email: "newcomer@example.com",
      password: "password1",
      retype: "password1",
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/");
    expect((await b.get("/")).html).toContain("Signed in as <strong>newcomer</strong>");
    const created = await t.services.users.findByName("newcomer");
    expect(created?.isAdmin).toBe(false);
  });

  it("is closed under DISABLE_REGISTRATION, and the header offers no Register link", async () => {
    const closed = await openWebTestApp(dialect, { service: { disableRegistration: true } });
    try {
      const b = closed.browser();
      const page = await b.get("/user/sign_up");
      expect(page.status).toBe(403);
      expect(page.html).toContain("Registration is disabled");
      expect((await b.get("/")).html).not.toContain("/user/sign_up");
      const login = await b.get("/user/login");
      const post = await b.post("/user/sign_up", {
        _csrf: login.field("_csrf"),
        user_name: "sneaky",
        email: "sneaky@example.com",
        password: "password1",
        retype: "password1",
      });
      expect(post.status).toBe(403);
      expect(await closed.services.users.findByName("sneaky")).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});
