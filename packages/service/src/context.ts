import type { Settings } from "@kiln/domain";
import type { KilnDb } from "@kiln/storage";

/** A minimal structured logger; pino satisfies it, and tests can pass a silent one. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What every service receives: the database, the settings and a logger. No HTTP. */
export interface ServiceContext {
  readonly db: KilnDb;
  readonly settings: Settings;
  readonly logger: Logger;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
