import type { Migration } from "kysely";
import * as m0001 from "./2026-11-21-0001-accounts.js";

/** Every migration, by name; names sort in the order they must run. Frozen once released. */
export const migrations: Readonly<Record<string, Migration>> = {
  "2026-11-21-0001-accounts": m0001,
};
