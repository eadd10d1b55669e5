import type { Kysely } from "kysely";

/**
 * A per-user count of failed second-factor attempts and the time the account's second factor is
 * locked until, so the guess limit holds across sessions, concurrent requests and the API.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("two_factor")
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("two_factor").addColumn("locked_until", "timestamptz").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("two_factor").dropColumn("locked_until").execute();
  await db.schema.alterTable("two_factor").dropColumn("failed_attempts").execute();
}
