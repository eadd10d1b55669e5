import * as v from "valibot";

/**
 * The one place the server reads `process.env`, validated: the work directory, a PostgreSQL
 * URL, the log level, and every `KILN__SECTION__KEY` configuration override.
 */
const Environment = v.object({
  KILN_WORK_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// connection string"),
    ),
  ),
  KILN_LOG_LEVEL: v.optional(v.picklist(["trace", "debug", "info", "warn", "error", "fatal", "silent"])),
});

export interface KilnEnvironment {
  readonly workDir: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly logLevel: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /**
   * `KILN_TEST_CRASH_AT`, honoured only under `NODE_ENV=test`: the named point at which the server
   * kills itself (crash-recovery tests).
   */
  readonly testCrashAt: string | undefined;
  /** The raw environment, for `KILN__SECTION__KEY` overrides. */
  readonly overrides: Readonly<Record<string, string | undefined>>;
}

/** Reads and validates the environment; throws with the variable's name when a value is wrong. */
export function readEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): KilnEnvironment {
  const parsed = v.safeParse(Environment, {
    KILN_WORK_DIR: env.KILN_WORK_DIR || undefined,
    DATABASE_URL: env.DATABASE_URL || undefined,
    KILN_LOG_LEVEL: env.KILN_LOG_LEVEL || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const name = issue?.path?.[0]?.key ?? "environment";
    throw new Error(`invalid environment variable ${String(name)}: ${issue?.message}`);
  }
  const overrides = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("KILN__")));
  return {
    workDir: parsed.output.KILN_WORK_DIR,
    databaseUrl: parsed.output.DATABASE_URL,
    logLevel: parsed.output.KILN_LOG_LEVEL ?? "info",
    testCrashAt: env.NODE_ENV === "test" ? env.KILN_TEST_CRASH_AT || undefined : undefined,
    overrides,
  };
}
