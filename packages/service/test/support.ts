import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSettings, type SettingsOverrides } from "@kiln/domain";
import { type DialectName, openTestDatabase, type TestDatabase } from "@kiln/storage/testing";
import { afterAll, beforeAll } from "vitest";
import { silentLogger } from "../src/context.js";
import { createServices, type Services } from "../src/services.js";

/**
 * One set of services per test file and dialect: opened before the file's tests, closed (database
 * and work path) after them. `onOpen` receives the services.
 */
export function useTestServices(dialect: DialectName, onOpen: (services: Services) => void): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTestServices(dialect);
    onOpen(opened.services);
    close = () => opened.database.close();
  });
  afterAll(() => close?.());
}

/** Services over a fresh test database of the given dialect. */
export async function openTestServices(
  dialect: DialectName,
  overrides: SettingsOverrides = {},
): Promise<{ services: Services; database: TestDatabase }> {
  const database = await openTestDatabase(dialect);
  const workPath = mkdtempSync(join(tmpdir(), "kiln-service-"));
  const settings = defaultSettings(workPath, {
    security: { secretKey: "test-secret-key" },
    ...overrides,
  });
  const services = createServices({ db: database.db, settings, logger: silentLogger });
  // Closing the database also removes the work path (repositories, LFS objects) the test made.
  const close = async () => {
    await database.close();
    rmSync(workPath, { recursive: true, force: true });
  };
  return { services, database: { ...database, close } };
}
