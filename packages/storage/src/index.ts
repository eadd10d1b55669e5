export * from "./database.js";
export * from "./database-actions.js";
export * from "./database-attachments.js";
export * from "./database-issues.js";
export { createDialect, openPGlitePool } from "./dialect.js";
export { isUniqueViolation } from "./errors.js";
export { fromDialect, MigrationError, migrateToLatest, openDatabase } from "./open.js";
export * from "./queries/index.js";
export { cachedRead, enableReadCache, ReadCache, type ReadCacheOptions, WriteClock } from "./read-cache.js";
