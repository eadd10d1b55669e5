import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { DatabaseSettings } from "@kiln/domain";
import { QuotaLedger } from "@kiln/service";
import { type KilnDb, openDatabase, repositories } from "@kiln/storage";
import { dropPostgresSchema, testPostgresUrl } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, kiln, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

const schema = `kiln_e2e_quota_${randomBytes(5).toString("hex")}`;
const SETUPS = [
  { name: "the embedded database", env: {} as Record<string, string> },
  { name: "PostgreSQL", env: { DATABASE_URL: testPostgresUrl(), KILN__DATABASE__SCHEMA: schema } },
];

describe.each(SETUPS)("quota end to end, kiln web on $name", ({ env }) => {
  const work = tempWorkPath();
  let server: ServerProcess;
  let admin: string;
  let alice: { id: number; token: string };
  const dbSettings: DatabaseSettings = env.DATABASE_URL
    ? { type: "postgres", url: env.DATABASE_URL, schema }
    : { type: "pglite", path: join(work, "data", "pglite") };

  const stop = async () => {
    server.signal("SIGTERM");
    expect(await server.exited).toBe(0);
  };
  /** Stores data the way the (separately built) repository API will, with the server stopped (PGlite is single-process). */
  const withDatabase = async (fn: (db: KilnDb) => Promise<void>) => {
    const db = await openDatabase(dbSettings);
    try {
      await fn(db);
    } finally {
      await db.destroy();
    }
  };
  const repo = (db: KilnDb, name: string, gitSize: number, isPrivate = false) =>
    repositories.insertRepository(db, {
      ownerId: alice.id,
      ownerName: "alice",
      name,
      lowerName: name,
      gitSize,
      isPrivate,
    });

  beforeAll(async () => {
    server = await startServer(work, env);
  });
  afterAll(async () => {
    if (server.process.exitCode === null) {
      server.signal("SIGKILL");
      await server.exited;
    }
    if (env.DATABASE_URL) await dropPostgresSchema(schema);
  });

  it("manages rules and groups, and answers /user/quota and /user/quota/check for stored usage", async () => {
    const created = await kiln(
      [
        "admin",
        "user",
        "create",
        "-w",
        work,
        "--username",
        "root",
        "--password",
        "password1",
        "--email",
        "root@example.com",
        "--admin",
      ],
      env,
    );
    expect(created.code).toBe(0);
    admin = (
      await api(server.url, "POST", "/users/root/tokens", {
        basic: ["root", "password1"],
        body: { name: "t", scopes: ["all"] },
      })
    ).json.sha1;
    const user = await api(server.url, "POST", "/admin/users", {
      token: admin,
      body: {
        username: "alice",
        email: "alice@example.com",
        password: "password1",
        must_change_password: false,
      },
    });
    expect(user.status).toBe(201);
    const token = await api(server.url, "POST", "/users/alice/tokens", {
      basic: ["alice", "password1"],
      body: { name: "t", scopes: ["all"] },
    });
    alice = { id: user.json.id, token: token.json.sha1 };

    await stop();
    await withDatabase(async (db) => {
      const ledger = new QuotaLedger();
      await db.transaction().execute(async (trx) => {
        await ledger.recordRepositoryChange(trx, undefined, await repo(trx, "public-repo", 6000));
        await ledger.recordRepositoryChange(trx, undefined, await repo(trx, "private-repo", 1000, true));
      });
      // A repository stored behind the ledger's back: drift for `kiln doctor quota` to find.
      await repo(db, "unrecorded", 5000);
    });
    server = await startServer(work, env);

    const group = await api(server.url, "POST", "/admin/quota/groups", {
      token: admin,
      body: { name: "standard", rules: [{ name: "repos-10k", limit: 10_000, subjects: ["size:repos:all"] }] },
    });
    expect(group.status).toBe(201);
    expect(group.json).toEqual({
      name: "standard",
      rules: [{ name: "repos-10k", limit: 10_000, subjects: ["size:repos:all"] }],
    });
    expect(
      (await api(server.url, "PUT", "/admin/quota/groups/standard/users/alice", { token: admin })).status,
    ).toBe(204);

    const info = await api(server.url, "GET", "/user/quota", { token: alice.token });
    expect(info.status).toBe(200);
    expect(info.json.used.size.repos).toEqual({ public: 6000, private: 1000 });
    expect(info.json.groups).toEqual([{ rules: [{ limit: 10_000, subjects: ["size:repos:all"] }] }]);
    expect(
      (await api(server.url, "GET", "/user/quota/check?subject=size:repos:all", { token: alice.token })).json,
    ).toBe(true);
    const bad = await api(server.url, "GET", "/user/quota/check?subject=size:nothing", {
      token: alice.token,
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe("unrecognized quota limit subject: [subject: size:nothing]");
    const admins = await api(server.url, "GET", "/admin/users/alice/quota", { token: admin });
    expect(admins.json.groups[0].name).toBe("standard");
  });

  it("kiln doctor quota, through the running server: reports the drift (exit 3), repairs it with --fix", async () => {
    const check = await kiln(["doctor", "quota", "-w", work], env);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain(
      `drift: owner alice (id ${alice.id}), reposPublic (size:repos:public): ledger 6000 bytes, recount 11000 bytes (+5000)`,
    );
    expect(check.stdout).toContain("Checked 2 owners: 1 counter of 1 owner differs from the stored data.");
    // Not a terminal: progress comes as plain lines on stderr, streamed from the server.
    expect(check.stderr).toContain("Recounting quota usage: 2/2 (100%)");

    const fix = await kiln(["doctor", "quota", "--fix", "-w", work], env);
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain("Checked 2 owners: repaired 1 counter of 1 owner.");
    const info = await api(server.url, "GET", "/user/quota", { token: alice.token });
    expect(info.json.used.size.repos.public).toBe(11_000);
    expect(
      (await api(server.url, "GET", "/user/quota/check?subject=size:repos:all", { token: alice.token })).json,
    ).toBe(false);

    const again = await kiln(["doctor", "quota", "-w", work], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("the quota ledger matches the stored data");
  });

  it("answers 404 on quota routes with [quota] ENABLED = false; the doctor also runs without a server", async () => {
    await stop();
    const direct = await kiln(["doctor", "quota", "-w", work], env);
    expect(direct.code).toBe(0);
    server = await startServer(work, { ...env, KILN__QUOTA__ENABLED: "false" });
    expect((await api(server.url, "GET", "/user/quota", { token: alice.token })).status).toBe(404);
    expect((await api(server.url, "GET", "/admin/quota/rules", { token: admin })).status).toBe(404);
    expect((await api(server.url, "GET", "/user", { token: alice.token })).status).toBe(200);
  });
});
