import { type Kysely, sql } from "kysely";

/**
 * Quota rules and groups (Forgejo's quota_rule, quota_group, quota_group_rule_mapping and
 * quota_group_mapping): rules keep their subjects in the spelling they were created with; groups
 * hold rules and apply to users and organizations. Deleting a rule, a group or an account removes
 * its mappings.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("quota_rule")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("limit", "bigint", (c) => c.notNull())
    .addColumn("subjects", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();

  await db.schema
    .createTable("quota_group")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable("quota_group_rule")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("group_id", "bigint", (c) => c.notNull().references("quota_group.id").onDelete("cascade"))
    .addColumn("rule_id", "bigint", (c) => c.notNull().references("quota_rule.id").onDelete("cascade"))
    .addUniqueConstraint("quota_group_rule_group_rule_key", ["group_id", "rule_id"])
    .execute();
  await db.schema
    .createIndex("quota_group_rule_rule_id_idx")
    .on("quota_group_rule")
    .column("rule_id")
    .execute();

  await db.schema
    .createTable("quota_group_owner")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("group_id", "bigint", (c) => c.notNull().references("quota_group.id").onDelete("cascade"))
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addUniqueConstraint("quota_group_owner_group_owner_key", ["group_id", "owner_id"])
    .execute();
  await db.schema
    .createIndex("quota_group_owner_owner_id_idx")
    .on("quota_group_owner")
    .column("owner_id")
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["quota_group_owner", "quota_group_rule", "quota_group", "quota_rule"]) {
    await db.schema.dropTable(table).execute();
  }
}
