import {
  DatabaseUnavailableError,
  defaultSettings,
  NotFoundError,
  ServiceUnavailableError,
} from "@kiln/domain";
import { silentLogger } from "@kiln/service";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "./env.js";
import { onError } from "./errors.js";

/** An app whose only route throws `err`, behind the API's error handler. */
function throwing(err: Error): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set("settings", defaultSettings("/tmp/kiln-errors-test"));
    c.set("logger", silentLogger);
    await next();
  });
  app.get("/", () => {
    throw err;
  });
  app.onError(onError);
  return app;
}

describe("the API's error handler", () => {
  it("answers a lost database with 503, Retry-After and the cause in Forgejo's body", async () => {
    const res = await throwing(
      new DatabaseUnavailableError("The database is unavailable: the connection to the database was lost."),
    ).request("/");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toEqual({
      message: "The database is unavailable: the connection to the database was lost.",
      url: "http://localhost:3000/api/swagger",
    });
  });

  it("answers any unavailable error with 503, not 500", async () => {
    const res = await throwing(new ServiceUnavailableError("git is busy")).request("/");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await throwing(new NotFoundError()).request("/")).status).toBe(404);
  });
});
