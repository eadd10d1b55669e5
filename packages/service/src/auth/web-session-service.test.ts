import { webSessions } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";
import { hashTokenSecret } from "./token-secret.js";

describe.each(DIALECTS)("web sessions on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  it("updates a live session, and never brings back one that was ended meanwhile", async () => {
    const name = uniqueName("ws");
    const user = await s.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    const cookie = await s.webSessions.start(user, false, {});
    const session = await s.webSessions.load(cookie);
    expect(session?.user?.id).toBe(user.id);
    expect(await s.webSessions.update(session!, { redirectTo: "/a" })).toBe(true);
    expect((await s.webSessions.load(cookie))?.data.redirectTo).toBe("/a");
    // A request loaded the session, then the user signed out before it wrote its change.
    await s.webSessions.end(cookie);
    expect(await s.webSessions.update(session!, { redirectTo: "/b" })).toBe(false);
    expect(await s.webSessions.load(cookie)).toBeUndefined();
  });

  it("serves a session from the cache, and drops it at once when it changes, ends, or its account does", async () => {
    const name = uniqueName("wsc");
    const user = await s.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    const cookie = await s.webSessions.start(user, false, {});
    const first = await s.webSessions.load(cookie);
    expect(first?.user?.id).toBe(user.id);
    // Cached: the same answer without the row (deleted behind the service's back, as another process would).
    await webSessions.deleteSession(s.ctx.db, hashTokenSecret(cookie));
    expect((await s.webSessions.load(cookie))?.user?.id).toBe(user.id);
    // Through the service, a change is seen at once.
    const again = await s.webSessions.start(user, false, {});
    const loaded = await s.webSessions.load(again);
    expect(await s.webSessions.update(loaded!, { redirectTo: "/x" })).toBe(true);
    expect((await s.webSessions.load(again))?.data.redirectTo).toBe("/x");
    await s.users.adminEdit(user, { prohibitLogin: true });
    expect(await s.webSessions.load(again)).toBeUndefined();
    await s.users.adminEdit(user, { prohibitLogin: false });
    expect((await s.webSessions.load(again))?.user?.id).toBe(user.id);
    await s.webSessions.end(again);
    expect(await s.webSessions.load(again)).toBeUndefined();
  });
});
