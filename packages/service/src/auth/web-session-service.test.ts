import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

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
});
