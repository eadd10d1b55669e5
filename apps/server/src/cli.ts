import { KILN_VERSION } from "@kiln/domain";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { CommandIO } from "./commands/command-context.js";
import { EXIT_DRIFT } from "./commands/exit-codes.js";
import type { InstanceCommandName } from "./commands/instance-commands.js";
import { progressRenderer } from "./commands/progress.js";
import { ConfigError } from "./config/load-settings.js";
import { type GlobalFlags, resolveConfig } from "./config/resolve.js";
import { readEnvironment } from "./env.js";
import { DataLock, isAlive, LockedByOtherError, readLock } from "./instance/lock.js";
import { createLogger } from "./logger.js";

// The server, the services and the database load only for the command that needs them: `--help`,
// a bad argument or a command handed to the running server starts in a fraction of the time.
const stdio: CommandIO = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  progress: progressRenderer(process.stderr),
};

/** Runs the `kiln` CLI with the given arguments (without `node` and the script); returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`kiln: ${message}\n`);
    return 1;
  }
}

function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command("kiln")
    .description("Kiln: a self-hosted forge with a Forgejo-compatible API")
    .version(KILN_VERSION, "-v, --version")
    .option("-c, --config <file>", "custom configuration file (default: <work-path>/custom/conf/app.ini)")
    .option("-w, --work-path <dir>", "Kiln's work path (default: $KILN_WORK_DIR or the current directory)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`kiln: ${text.replace(/^error: /, "")}`) });

  const globals = (cmd: Command): GlobalFlags => {
    const o = cmd.optsWithGlobals() as { config?: string; workPath?: string };
    return { ...(o.config ? { config: o.config } : {}), ...(o.workPath ? { workPath: o.workPath } : {}) };
  };
  const instance = (name: InstanceCommandName, args: (opts: Record<string, unknown>) => object) => {
    return async (_opts: Record<string, unknown>, cmd: Command) => {
      setExit(await runCommand(name, args(cmd.opts()), globals(cmd)));
    };
  };
  const sub = (parent: Command, name: string, description: string) =>
    parent.command(name).description(description).exitOverride().configureOutput(program.configureOutput());

  sub(program, "web", "start the Kiln web server")
    .option("-p, --port <port>", "listen on this port (overrides [server] HTTP_PORT)", parsePort)
    .action(async (opts: { port?: number }, cmd: Command) => {
      const env = readEnvironment();
      const [{ setCrashPoint }, { runWeb }] = await Promise.all([
        import("@kiln/service"),
        import("./web/run-web.js"),
      ]);
      setCrashPoint(env.testCrashAt);
      const config = resolveConfig(
        { ...globals(cmd), ...(opts.port !== undefined ? { port: opts.port } : {}) },
        env,
      );
      setExit(await runWeb(config, createLogger(env.logLevel, "stdout")));
    });

  sub(program, "migrate", "bring the database to the latest schema").action(instance("migrate", () => ({})));

  const doctor = sub(program, "doctor", "check this instance's data and repair it");
  sub(
    doctor,
    "quota",
    `find what interrupted pushes and uploads left on disk, measure repositories and the LFS store against their stored sizes, recount every owner's quota usage and report each difference (exit ${EXIT_DRIFT} when something is found and not repaired)`,
  )
    .option(
      "--fix",
      "repair: remove leftovers untouched for an hour, write the measured sizes and the recount into the ledger",
      false,
    )
    .action(instance("doctor.quota", (o) => ({ fix: o.fix })));

  const admin = sub(program, "admin", "administer this instance");
  const cron = sub(admin, "cron", "the periodic tasks (blob sweeps, artifact expiry, …)");
  sub(cron, "list", "list the cron tasks with their schedules and last runs").action(
    instance("admin.cron.list", () => ({})),
  );
  sub(cron, "run", "run a cron task now and wait for it")
    .argument("<task>", "the task's name (see 'kiln admin cron list')")
    .action(async (task: string, _o: unknown, cmd: Command) => {
      setExit(await runCommand("admin.cron.run", { task }, globals(cmd)));
    });
  const user = sub(admin, "user", "manage user accounts");
  sub(user, "create", "create a user")
    .requiredOption("--username <name>", "username")
    .requiredOption("--email <email>", "e-mail address")
    .option("--password <password>", "password")
    .option("--admin", "make the user a site administrator", false)
    .addOption(
      new Option(
        "--must-change-password [bool]",
        "require a password change at first sign-in (default: true, false for the first user)",
      ).argParser(parseBool),
    )
    .action(
      instance("admin.user.create", (o) => ({
        username: o.username,
        email: o.email,
        password: o.password,
        admin: o.admin,
        mustChangePassword:
          o.mustChangePassword === undefined
            ? undefined
            : o.mustChangePassword === true || o.mustChangePassword === "true",
      })),
    );
  sub(user, "generate-access-token", "generate an access token for a user")
    .requiredOption("-u, --username <name>", "username")
    .option("-t, --token-name <name>", "token name", "kiln-admin")
    .option("--scopes <scopes>", "comma-separated scopes, e.g. 'all' or 'read:user,write:repository'", "all")
    .option("--raw", "print only the token", false)
    .action(
      instance("admin.user.generate-access-token", (o) => ({
        username: o.username,
        tokenName: o.tokenName,
        scopes: o.scopes,
        raw: o.raw,
      })),
    );
  sub(user, "list", "list users")
    .option("--admin", "list only site administrators", false)
    .action(instance("admin.user.list", (o) => ({ admin: o.admin })));
  sub(user, "delete", "delete a user")
    .option("--username <name>", "username")
    .option("--email <email>", "e-mail address")
    .option("--id <id>", "user id", parseId)
    .option("--purge", "also delete what the user owns", false)
    .action(async (_o: unknown, cmd: Command) => {
      const o = cmd.opts() as { username?: string; email?: string; id?: number; purge: boolean };
      if (!o.username && !o.email && o.id === undefined) {
        cmd.error("kiln: one of --username, --email or --id is required", { exitCode: 2 });
      }
      setExit(await runCommand("admin.user.delete", o, globals(cmd)));
    });
  return program;
}

/**
 * Runs an instance command where the data is: through the running server's internal API when a
 * server holds the work path (PGlite is single-process), otherwise against the database directly
 * while holding the data lock.
 */
async function runCommand(name: InstanceCommandName, args: object, flags: GlobalFlags): Promise<number> {
  const env = readEnvironment();
  const { settings, warnings } = resolveConfig(flags, env);
  const logger = createLogger(env.logLevel === "info" ? "warn" : env.logLevel, "stderr");
  for (const w of warnings) logger.warn(w);
  for (let attempt = 0; attempt < 50; attempt++) {
    const holder = readLock(settings.server.appDataPath);
    if (holder?.role === "web" && isAlive(holder.pid)) {
      if (holder.socket && holder.token) {
        const { callInternalApi } = await import("./instance/internal-api.js");
        return callInternalApi(holder.socket, holder.token, name, args, stdio);
      }
      await new Promise((r) => setTimeout(r, 100)); // the server is starting: wait for its socket
      continue;
    }
    let lock: DataLock | undefined;
    try {
      lock =
        settings.database.type === "pglite"
          ? DataLock.acquire(settings.server.appDataPath, "cli")
          : undefined;
    } catch (err) {
      if (err instanceof LockedByOtherError && err.holder.role === "web") continue;
      throw err;
    }
    try {
      const [{ openInstance }, { runInstanceCommand }] = await Promise.all([
        import("./instance/instance.js"),
        import("./commands/instance-commands.js"),
      ]);
      const opened = await openInstance(settings, logger);
      try {
        return await runInstanceCommand({ ...opened, io: stdio, migrated: opened.migrated }, name, args);
      } finally {
        await opened.close();
      }
    } finally {
      lock?.release();
    }
  }
  throw new Error("the kiln server holding this work path did not publish its internal API");
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError("not a port number (0-65535)");
  return Number(value);
}

function parseId(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("not a numeric id");
  return Number(value);
}

function parseBool(value: string): boolean {
  if (["true", "1", "t"].includes(value.toLowerCase())) return true;
  if (["false", "0", "f"].includes(value.toLowerCase())) return false;
  throw new InvalidArgumentError("expected true or false");
}

export { ConfigError };
