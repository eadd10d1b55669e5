import type { TestApp, TestUser } from "../support.js";
import type { WorldRepo } from "./world-model.js";

/**
 * Watching, stars, following and notifications in the hostile fixture: the site admin stars and
 * watches every fixture repository and follows every fixture owner, each owner follows the admin,
 * and the victim has a notification thread about each repository's first issue (its id in
 * `notificationId`), so the site admin's control requests of those routes find something.
 */
export async function seedSocial(
  t: TestApp,
  admin: TestUser,
  victim: TestUser,
  repos: readonly WorldRepo[],
  owners: readonly { readonly id: number }[],
): Promise<WorldRepo[]> {
  const db = t.services.ctx.db;
  const out: WorldRepo[] = [];
  for (const repo of repos) {
    await db.insertInto("star").values({ userId: admin.id, repoId: repo.id }).execute();
    await db
      .insertInto("watch")
      .values({ userId: admin.id, repoId: repo.id, mode: 1 })
      .onConflict((oc) => oc.columns(["userId", "repoId"]).doUpdateSet({ mode: 1 }))
      .execute();
    const issue = await db
      .selectFrom("issue")
      .select("id")
      .where("repoId", "=", repo.id)
      .where("index", "=", 1)
      .executeTakeFirstOrThrow();
    const thread = await db
      .insertInto("notification")
      .values({
        userId: victim.id,
        repoId: repo.id,
        status: 1,
        source: 1,
        issueId: issue.id,
        updatedBy: admin.id,
      })
      .onConflict((oc) =>
        oc.columns(["userId", "issueId"]).where("issueId", "is not", null).doUpdateSet({ status: 1 }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    out.push({ ...repo, notificationId: thread.id });
  }
  for (const owner of owners) {
    await db.insertInto("follow").values({ userId: admin.id, followId: owner.id }).execute();
    await db.insertInto("follow").values({ userId: owner.id, followId: admin.id }).execute();
  }
  return out;
}
