import type { Settings } from "@kiln/domain";
import type { Services } from "@kiln/service";
import type { ProgressUpdate } from "./progress.js";

/**
 * Where a command writes: lines for the user (stdout), for errors (stderr), and the progress of
 * long tasks (drawn by the CLI; streamed like the rest when the command runs in the server).
 */
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
  progress(update: ProgressUpdate): void;
}

/** What a command acting on an instance receives, whether it runs in the CLI or in the server. */
export interface CommandContext {
  readonly services: Services;
  readonly settings: Settings;
  readonly io: CommandIO;
  /** Migrations applied when the database was opened for this command (none when it was up to date). */
  readonly migrated: readonly string[];
}
