import { mkdirSync } from "node:fs";
import type { Settings } from "@kiln/domain";
import { createServices, type Logger, type Services } from "@kiln/service";
import { type KilnDb, migrateToLatest, openDatabase } from "@kiln/storage";
import { withSecretKey } from "./secret-key.js";

/** An open Kiln instance: its database (migrated), services and settings. */
export interface Instance {
  readonly settings: Settings;
  readonly db: KilnDb;
  readonly services: Services;
  /** Migrations applied while opening. */
  readonly migrated: readonly string[];
  close(): Promise<void>;
}

/**
 * Opens the instance a configuration describes: creates its directories, opens the database and
 * brings it to the latest migration. The caller must hold the data lock when using PGlite.
 */
export async function openInstance(settings: Settings, logger: Logger): Promise<Instance> {
  const full = withSecretKey(settings);
  for (const dir of [full.server.appDataPath, full.repository.root, full.lfs.path])
    mkdirSync(dir, { recursive: true });
  if (full.database.type === "pglite") mkdirSync(full.database.path, { recursive: true });
  const db = await openDatabase(full.database);
  let migrated: string[];
  try {
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
  return { settings: full, db, services, migrated, close: () => db.destroy() };
}
