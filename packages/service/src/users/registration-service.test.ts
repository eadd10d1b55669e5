import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterEach, describe, expect, it } from "vitest";
import { openTestServices } from "../../test/support.js";

describe.each(DIALECTS)("self-registration on %s", (dialect) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("makes the first account a site administrator and the next ones ordinary users, as Forgejo", async () => {
    const { services, database } = await openTestServices(dialect);
    close = () => database.close();
    const first = await services.registrations.register({
      username: "first",
      email: "first@example.com",
      password: "password1",
    });
    expect(first.isAdmin).toBe(true);
    const second = await services.registrations.register({
      username: "second",
      email: "second@example.com",
      password: "password1",
    });
    expect(second.isAdmin).toBe(false);
    expect(await services.auth.checkPassword("second", "password1")).toMatchObject({ id: second.id });
    // The admin API's rules hold: a taken name, a short password.
    await expect(
      services.registrations.register({ username: "second", email: "x@example.com", password: "password1" }),
    ).rejects.toMatchObject({ kind: "invalid_argument" });
    await expect(
      services.registrations.register({
        username: uniqueName("u"),
        email: "y@example.com",
        password: "short",
      }),
    ).rejects.toMatchObject({ kind: "bad_request" });
  });

  it("refuses every registration under DISABLE_REGISTRATION", async () => {
    const { services, database } = await openTestServices(dialect, {
      service: { disableRegistration: true },
    });
    close = () => database.close();
    expect(services.registrations.open).toBe(false);
    await expect(
      services.registrations.register({
        username: "nobody",
        email: "nobody@example.com",
        password: "password1",
      }),
    ).rejects.toMatchObject({ kind: "permission_denied" });
    expect(await services.users.findByName("nobody")).toBeUndefined();
  });
});
