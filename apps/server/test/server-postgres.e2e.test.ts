import { randomBytes } from "node:crypto";
import { dropPostgresSchema, testPostgresUrl } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, kiln, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

describe("kiln web on PostgreSQL", () => {
  const schema = `kiln_e2e_${randomBytes(5).toString("hex")}`;
  const env = { DATABASE_URL: testPostgresUrl(), KILN__DATABASE__SCHEMA: schema };
  const work = tempWorkPath();
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer(work, env);
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dropPostgresSchema(schema);
  });

  it("serves the same API, with CLI commands and data kept in PostgreSQL", async () => {
    const created = await kiln(
      [
        "admin",
        "user",
        "create",
        "-w",
        work,
        "--username",
        "pgadmin",
        "--password",
        "password1",
        "--email",
        "pg@example.com",
        "--admin",
      ],
      env,
    );
    expect(created.code).toBe(0);
    const token = await api(server.url, "POST", "/users/pgadmin/tokens", {
      basic: ["pgadmin", "password1"],
      body: { name: "t", scopes: ["all"] },
    });
    expect(token.status).toBe(201);
    expect((await api(server.url, "GET", "/user", { token: token.json.sha1 })).json.login).toBe("pgadmin");

    server.signal("SIGTERM");
    expect(await server.exited).toBe(0);
    // With the server stopped, the CLI talks to PostgreSQL directly and sees the same data.
    const list = await kiln(["admin", "user", "list", "-w", work], env);
    expect(list.stdout).toContain("pgadmin");
  });
});
