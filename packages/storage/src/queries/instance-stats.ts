import { sql } from "kysely";
import type { Db } from "../database.js";

/** What `/nodeinfo` shares about the instance's use (Forgejo's NodeInfoUsage), in one query. */
export interface InstanceUsage {
  readonly users: number;
  readonly activeMonth: number;
  readonly activeHalfyear: number;
  readonly issues: number;
  readonly comments: number;
}

/**
 * Users (individual accounts), those who signed in within a month and within six months, and
 * every issue, pull request and comment, as Forgejo's misc/nodeinfo.go counts them.
 */
export async function instanceUsage(db: Db, now: Date): Promise<InstanceUsage> {
  const month = new Date(now);
  month.setMonth(month.getMonth() - 1);
  const halfYear = new Date(now);
  halfYear.setMonth(halfYear.getMonth() - 6);
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("users")
        .select(sql<string>`count(*)`.as("n"))
        .where("type", "=", "individual")
        .as("users"),
      eb
        .selectFrom("users")
        .select(sql<string>`count(*)`.as("n"))
        .where("type", "=", "individual")
        .where("lastLoginAt", ">=", month)
        .as("activeMonth"),
      eb
        .selectFrom("users")
        .select(sql<string>`count(*)`.as("n"))
        .where("type", "=", "individual")
        .where("lastLoginAt", ">=", halfYear)
        .as("activeHalfyear"),
      eb.selectFrom("issue").select(sql<string>`count(*)`.as("n")).as("issues"),
      eb.selectFrom("comment").select(sql<string>`count(*)`.as("n")).as("comments"),
    ])
    .executeTakeFirstOrThrow();
  return {
    users: Number(row.users),
    activeMonth: Number(row.activeMonth),
    activeHalfyear: Number(row.activeHalfyear),
    issues: Number(row.issues),
    comments: Number(row.comments),
  };
}
