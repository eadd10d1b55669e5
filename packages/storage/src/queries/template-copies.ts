import type { Db } from "../database.js";

/**
 * Copies of a template repository's settings into a repository generated from it (Forgejo's
 * services/repository/template.go), each one `INSERT … SELECT` in the caller's transaction.
 */

/** The template's labels, without their issue counts (Forgejo's GenerateIssueLabels). */
export async function copyLabels(db: Db, fromRepoId: number, toRepoId: number): Promise<void> {
  await db
    .insertInto("label")
    .columns(["repoId", "name", "exclusive", "description", "color", "archivedAt"])
    .expression(
      db
        .selectFrom("label")
        .select((eb) => [
          eb.val(toRepoId).as("repoId"),
          "name",
          "exclusive",
          "description",
          "color",
          "archivedAt",
        ])
        .where("repoId", "=", fromRepoId)
        .orderBy("id"),
    )
    .execute();
}

/**
 * The template's webhooks with their events and filters (GenerateWebhooks), without their
 * credentials: whoever generates a repository may only read the template, so neither the signing
 * secret nor the authorization header goes with them (Forgejo copies the secret).
 */
export async function copyWebhooks(db: Db, fromRepoId: number, toRepoId: number): Promise<void> {
  await db
    .insertInto("webhook")
    .columns([
      "repoId",
      "type",
      "url",
      "httpMethod",
      "contentType",
      "secret",
      "events",
      "branchFilter",
      "authorizationHeader",
      "meta",
      "isActive",
    ])
    .expression(
      db
        .selectFrom("webhook")
        .select((eb) => [
          eb.val(toRepoId).as("repoId"),
          "type",
          "url",
          "httpMethod",
          "contentType",
          eb.val("").as("secret"),
          "events",
          "branchFilter",
          eb.val("").as("authorizationHeader"),
          "meta",
          "isActive",
        ])
        .where("repoId", "=", fromRepoId)
        .orderBy("id"),
    )
    .execute();
}

/** The template's branch protection rules (GenerateProtectedBranch). */
export async function copyProtectedBranches(db: Db, fromRepoId: number, toRepoId: number): Promise<void> {
  await db
    .insertInto("protectedBranch")
    .columns(["repoId", "ruleName", "priority", "settings"])
    .expression(
      db
        .selectFrom("protectedBranch")
        .select((eb) => [eb.val(toRepoId).as("repoId"), "ruleName", "priority", "settings"])
        .where("repoId", "=", fromRepoId)
        .orderBy("id"),
    )
    .execute();
}

/** The template's uploaded avatar, served under `hash` for the new repository (GenerateAvatar). */
export async function copyAvatar(db: Db, fromRepoId: number, toRepoId: number, hash: string): Promise<void> {
  const row = await db.selectFrom("avatar").selectAll().where("repoId", "=", fromRepoId).executeTakeFirst();
  if (!row) return;
  await db
    .insertInto("avatar")
    .values({
      hash,
      repoId: toRepoId,
      userId: null,
      blobKey: row.blobKey,
      contentType: row.contentType,
      size: row.size,
    })
    .onConflict((oc) => oc.column("hash").doNothing())
    .execute();
  await db.updateTable("repository").set({ avatar: hash }).where("id", "=", toRepoId).execute();
}
