import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp } from "../../../test/support.js";
import { KILN_VERSION } from "./version.js";

describe.each(DIALECTS)("nodeinfo on %s", (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(dialect, { federation: { enabled: true } });
  });
  afterAll(() => t?.close());

  it("describes the instance with its users, issues and comments", async () => {
    const owner = await t.user();
    await t.user();
    const repo = await createRepo(t, owner, "tools");
    const issue = await t.call("POST", `${repo.path}/issues`, { token: owner.token, body: { title: "one" } });
    expect(issue.status).toBe(201);
    const comment = await t.call("POST", `${repo.path}/issues/${issue.json.number}/comments`, {
      token: owner.token,
      body: { body: "hello" },
    });
    expect(comment.status).toBe(201);

    const res = await t.call("GET", "/nodeinfo");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      version: "2.1",
      software: { name: "kiln", version: KILN_VERSION, homepage: "http://kiln.test/" },
      protocols: [],
      openRegistrations: true,
      usage: { users: { total: 2, activeMonth: 0, activeHalfyear: 0 }, localPosts: 1, localComments: 1 },
    });
  });

  it("counts a user who signed in on the web as active, and shows the time as last_login", async () => {
    const user = await t.user();
    // What the sign-in page does once the password is accepted (the pages are @kiln/web's).
    const account = await t.services.users.findByName(user.name);
    await t.services.webSessions.start(account!, false, {});
    const me = await t.call("GET", "/user", { token: user.token });
    expect(Date.now() - Date.parse(me.json.last_login)).toBeLessThan(60_000);
    // The usage figures are counted once per 180 s: a fresh count sees the sign-in.
    const usage = await t.services.instance.usage(Date.now() + 181_000);
    expect(usage).toMatchObject({ activeMonth: 1, activeHalfyear: 1 });
  });

  it("is found through /.well-known/nodeinfo", async () => {
    const res = await t.app.request("http://kiln.test/.well-known/nodeinfo");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      links: [
        { href: "http://kiln.test/api/v1/nodeinfo", rel: "http://nodeinfo.diaspora.software/ns/schema/2.1" },
      ],
    });
  });
});

describe("nodeinfo and signing keys by default", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp("pglite");
  });
  afterAll(() => t?.close());

  it("has no nodeinfo without [federation] ENABLED, as Forgejo", async () => {
    expect((await t.call("GET", "/nodeinfo")).status).toBe(404);
    expect((await t.app.request("http://kiln.test/.well-known/nodeinfo")).status).toBe(404);
  });

  it("has no SSH signing key: 404, while the GPG one is empty", async () => {
    const ssh = await t.call("GET", "/signing-key.ssh");
    expect(ssh.status).toBe(404);
    const gpg = await t.call("GET", "/signing-key.gpg");
    expect(gpg.status).toBe(200);
    expect(gpg.text).toBe("");
  });
});
