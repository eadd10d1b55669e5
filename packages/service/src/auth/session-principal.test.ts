import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterEach, describe, expect, it } from "vitest";
import { openTestServices } from "../../test/support.js";

describe.each(DIALECTS)("the principal of a web session on %s", (dialect) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("resolves a signed-in web session to a principal with every scope, and none for a forced password change", async () => {
    const { services, database } = await openTestServices(dialect);
    close = () => database.close();
    const name = uniqueName("s");
    const user = await services.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    const session = await services.webSessions.load(await services.webSessions.start(user, false, {}));
    expect(services.auth.fromSession(session)).toMatchObject({
      user: { id: user.id },
      method: "session",
      scopes: null,
    });
    const pending = await services.webSessions.load(await services.webSessions.start(user, true, {}));
    expect(services.auth.fromSession(pending)).toBeNull();
    expect(services.auth.fromSession(undefined)).toBeNull();
    const forced = await services.users.adminEdit(user, { mustChangePassword: true });
    expect(services.auth.fromSession({ ...session!, user: forced })).toBeNull();
  });
});
