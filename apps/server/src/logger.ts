import { pino } from "pino";
import type { KilnEnvironment } from "./env.js";

/** The structured logger: JSON lines, to stdout for the server and to stderr for CLI commands. */
export function createLogger(level: KilnEnvironment["logLevel"], stream: "stdout" | "stderr" = "stdout") {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ fd: stream === "stdout" ? 1 : 2, sync: true }),
  );
}

export type KilnLogger = ReturnType<typeof createLogger>;
