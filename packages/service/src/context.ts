import type { Settings } from "@kiln/domain";
import type { KilnDb } from "@kiln/storage";
import type { EventRecorder } from "./events/recorder.js";

/** A minimal structured logger; pino satisfies it, and tests can pass a silent one. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What a caller gives createServices: the database, the settings and a logger. */
export interface ServiceContextInit {
  readonly db: KilnDb;
  readonly settings: Settings;
  readonly logger: Logger;
}

/**
 * What every service receives: the database, the settings, a logger and the event recorder
 * (changes record their events with `ctx.events.record(trx, event)`). No HTTP.
 */
export interface ServiceContext extends ServiceContextInit {
  readonly events: EventRecorder;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
