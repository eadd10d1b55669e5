import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

/** The npm CLI that ships with the node running the tests. */
const NPM = ((): string => {
  const beside = join(dirname(process.execPath), "npm");
  return existsSync(beside) ? beside : "npm";
})();

/**
 * Runs the npm CLI in `cwd` with an environment of its own: a scratch HOME whose `.npmrc` names
 * only the Kiln registry and the token, its own cache, and none of the caller's npm settings, so
 * nothing reaches beyond loopback.
 */
function npm(cwd: string, home: string, args: readonly string[]): Promise<{ code: number; out: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_globalconfig: join(home, "npmrc-global"),
    npm_config_cache: join(home, "cache"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_loglevel: "warn",
  };
  return new Promise((resolve) => {
    execFile(NPM, args, { cwd, env, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

function writePackage(dir: string, name: string, version: string, message: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      version,
      description: `${name} for the e2e test`,
      main: "index.js",
      license: "MIT",
    }),
  );
  writeFileSync(join(dir, "index.js"), `module.exports = ${JSON.stringify(message)};\n`);
  writeFileSync(join(dir, "README.md"), `# ${name}\n`);
}

describe.each(E2E_DATABASES)("npm publish and npm install against kiln web on %s", (database) => {
  const work = tempWorkPath();
  const db = databaseEnv(database);
  let server: ServerProcess;
  let user: { username: string; token: string };
  let home: string;
  let registry: string;

  beforeAll(async () => {
    server = await startServer(work, db.env);
    user = await createUser(server, work, "npmuser", db.env);
    home = join(work, "npm-home");
    mkdirSync(home, { recursive: true });
    registry = `${server.url}/api/packages/${user.username}/npm/`;
    const authKey = registry.replace(/^http:/, "");
    writeFileSync(join(home, ".npmrc"), `registry=${registry}\n${authKey}:_authToken=${user.token}\n`);
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await db.dispose();
  });

  it("publishes an unscoped and a scoped package, installs them, and counts them against the owner", async () => {
    const packages = [
      { name: "kiln-e2e-hello", message: "hello from kiln" },
      { name: "@kiln-e2e/scoped", message: "scoped hello" },
    ];
    for (const p of packages) {
      const dir = join(work, "src", p.name.replace("/", "_"));
      writePackage(dir, p.name, "1.0.0", p.message);
      const published = await npm(dir, home, ["publish", "--registry", registry]);
      expect(published.code, published.out).toBe(0);
      // The same version again is refused (409), and npm says so.
      const again = await npm(dir, home, ["publish", "--registry", registry]);
      expect(again.code, again.out).not.toBe(0);
    }
    // A second version of the first moves `latest`.
    const second = join(work, "src", "hello-2");
    writePackage(second, "kiln-e2e-hello", "1.1.0", "hello again");
    expect((await npm(second, home, ["publish", "--registry", registry])).code).toBe(0);
    const view = await npm(work, home, [
      "view",
      "kiln-e2e-hello",
      "dist-tags.latest",
      "--registry",
      registry,
    ]);
    expect(view.out.trim()).toBe("1.1.0");

    const consumer = join(work, "consumer");
    mkdirSync(consumer, { recursive: true });
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", version: "0.0.0", private: true }),
    );
    const installed = await npm(consumer, home, [
      "install",
      "kiln-e2e-hello@1.0.0",
      "@kiln-e2e/scoped",
      "--registry",
      registry,
    ]);
    expect(installed.code, installed.out).toBe(0);
    expect(readFileSync(join(consumer, "node_modules/kiln-e2e-hello/index.js"), "utf8")).toContain(
      "hello from kiln",
    );
    expect(readFileSync(join(consumer, "node_modules/@kiln-e2e/scoped/index.js"), "utf8")).toContain(
      "scoped hello",
    );
    const lock = JSON.parse(readFileSync(join(consumer, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/kiln-e2e-hello"].resolved).toContain(
      `/api/packages/${user.username}/npm/`,
    );

    // Usage is the sum of the stored tarballs, as the API lists them.
    const list = await api(server.url, "GET", `/packages/${user.username}?type=npm`, { token: user.token });
    expect(list.json.map((p: { name: string; version: string }) => `${p.name}@${p.version}`).sort()).toEqual([
      "@kiln-e2e/scoped@1.0.0",
      "kiln-e2e-hello@1.0.0",
      "kiln-e2e-hello@1.1.0",
    ]);
    let total = 0;
    for (const p of list.json as { name: string; version: string }[]) {
      const files = await api(
        server.url,
        "GET",
        `/packages/${user.username}/npm/${encodeURIComponent(p.name)}/${p.version}/files`,
        { token: user.token },
      );
      expect(files.json).toHaveLength(1);
      total += files.json[0].Size as number;
    }
    const quota = await api(server.url, "GET", "/user/quota", { token: user.token });
    expect(quota.json.used.size.assets.packages.all).toBe(total);
  });

  it("answers npm search with the owner's packages that match, newest version each", async () => {
    const found = await npm(work, home, ["search", "kiln-e2e-hello", "--json", "--registry", registry]);
    expect(found.code, found.out).toBe(0);
    const results = JSON.parse(found.out) as { name: string; version: string; description: string }[];
    expect(results.map((r) => `${r.name}@${r.version}`)).toEqual(["kiln-e2e-hello@1.1.0"]);
    expect(results[0]?.description).toBe("kiln-e2e-hello for the e2e test");
    // The table npm prints for people, and a search that matches nothing.
    const table = await npm(work, home, ["search", "kiln-e2e", "--registry", registry]);
    expect(table.code, table.out).toBe(0);
    expect(table.out).toContain("kiln-e2e-hello");
    expect(table.out).toContain("scoped");
    const none = await npm(work, home, ["search", "no-such-package", "--json", "--registry", registry]);
    expect(none.code, none.out).toBe(0);
    expect(JSON.parse(none.out)).toEqual([]);
  });
});
