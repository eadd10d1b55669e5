import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { openWorld } from "../../../test/world.js";

describe.each(DIALECTS)("git hooks over HTTP on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let writer: TestUser;

  beforeAll(async () => {
    ({
      t,
      users: [owner, admin, writer],
    } = await openWorld(dialect, {
      users: ["owner", "root", "writer"],
      admins: ["root"],
      repo: { name: "hooked", empty: true },
      collaborators: { writer: "write" },
    }));
  });
  afterAll(() => t?.close());

  it("refuses everyone, site admins included, with Forgejo's message under DISABLE_GIT_HOOKS", async () => {
    for (const user of [owner, admin]) {
      for (const [method, path, body] of [
        ["GET", "/hooks/git", undefined],
        ["GET", "/hooks/git/pre-receive", undefined],
        ["PATCH", "/hooks/git/pre-receive", { content: "#!/bin/sh\nexit 0\n" }],
        ["DELETE", "/hooks/git/pre-receive", undefined],
      ] as const) {
        const res = await t.call(method, `/repos/owner/hooked${path}`, {
          token: user.token,
          ...(body ? { body } : {}),
        });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.json.message).toBe("must be allowed to edit Git hooks");
      }
    }
  });

  it("answers a writer as reqAdmin does, and an anonymous caller 401", async () => {
    const res = await t.call("GET", "/repos/owner/hooked/hooks/git", { token: writer.token });
    expect(res.status).toBe(403);
    expect(res.json.message).not.toBe("must be allowed to edit Git hooks");
    expect((await t.call("GET", "/repos/owner/hooked/hooks/git")).status).toBe(401);
  });
});
