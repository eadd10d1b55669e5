import type { ColumnType, Generated } from "kysely";

/** A ref move announced before git makes it, until its consequences are recorded (migration 0040). */
export interface RefUpdateTable {
  id: Generated<number>;
  operation: string;
  repoId: number;
  ref: string;
  oldSha: string;
  newSha: string;
  kind: string;
  doerId: number | null;
  pullId: number | null;
  detail: ColumnType<string, string | undefined, string>;
  createdAt: ColumnType<Date, Date | undefined, never>;
}

/** The ref-move journal's table. */
export interface RefUpdateTables {
  refUpdate: RefUpdateTable;
}
