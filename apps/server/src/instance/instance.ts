import { mkdirSync } from "node:fs";
import type { Settings } from "@kiln/domain";
import { createServices, type Logger, type Services } from "@kiln/service";
import { type KilnDb, migrateToLatest, openDatabase } from "@kiln/storage";
import { withSecretKey } from "./secret-key.js";
import { waitForDatabase } from "./wait-for-database.js";

/** An open Kiln instance: its database (migrated), services and settings. */
export interface Instance {
  readonly settings: Settings;
  readonly db: KilnDb;
  readonly services: Services;
  /** Migrations applied while opening. */
  readonly migrated: readonly string[];
  close(): Promise<void>;
}

/** Options of {@link openInstance}. */
export interface OpenOptions {
  /**
   * Wait for an unreachable PostgreSQL server (`[database] DB_RETRIES`, `DB_RETRY_BACKOFF`) instead
   * of failing at once: `kiln web` does, as it may start before its database.
   */
  readonly waitForDatabase?: boolean;
}

/**
 * Opens the instance a configuration describes: creates its directories, opens the database and
 * brings it to the latest migration. The caller must hold the data lock when using PGlite.
 */
export async function openInstance(
  settings: Settings,
  logger: Logger,
  options: OpenOptions = {},
): Promise<Instance> {
  const full = withSecretKey(settings);
  for (const dir of [full.server.appDataPath, full.repository.root, full.lfs.path])
    mkdirSync(dir, { recursive: true });
  if (full.database.type === "pglite") mkdirSync(full.database.path, { recursive: true });
  const db = await openDatabase(full.database, {
    onConnectionError: (err) =>
      logger.warn(
        { err: err.message },
        "lost a database connection; requests on it failed with 503, the next ones get a fresh connection",
      ),
  });
  let migrated: string[];
  try {
    if (options.waitForDatabase && full.database.type === "postgres") {
      const { retries = 10, retryBackoff = 3_000 } = full.database;
      await waitForDatabase(db, { retries, backoff: retryBackoff }, logger);
    }
    migrated = await migrateToLatest(
      db,
      full.database.type === "postgres" ? full.database.schema : undefined,
    );
  } catch (err) {
    await db.destroy();
    throw err;
  }
  if (migrated.length > 0) logger.info({ migrations: migrated }, "database migrated");
  const services = createServices({ db, settings: full, logger });
  // Commit-graph writes a command's pushes started finish their size refresh before the database closes.
  const close = async () => {
    await services.repositories.idle();
    await db.destroy();
  };
  return { settings: full, db, services, migrated, close };
}
