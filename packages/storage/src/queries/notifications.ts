import { sql } from "kysely";
import type { Db } from "../database.js";

/**
 * Tells everyone an issue concerns that it changed, in the transaction of the change: its
 * poster, assignees, commenters, the users mentioned in it and its subscribers, but not the one
 * who changed it nor anyone who unsubscribed. Commenters include reviewers (review entries and
 * line comments), as Forgejo counts them. Each gets one notification per issue, brought back
 * to unread (with the latest comment and author) by every change. Who may still see the
 * repository is decided when notifications are listed, through the same visibility rule as
 * every other list, so a user who lost access never sees them.
 */
export async function notifyIssueChange(
  db: Db,
  change: {
    readonly issueId: number;
    readonly repoId: number;
    readonly isPull: boolean;
    readonly actorId: number;
    readonly commentId: number | null;
    readonly at: Date;
  },
): Promise<number> {
  const { issueId, repoId, isPull, actorId, commentId, at } = change;
  const result = await sql`
    insert into notification (user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at)
    select recipient.user_id, ${repoId}, 1, ${isPull ? 2 : 1}, ${issueId}, ${commentId}, ${actorId}, ${at}, ${at}
    from (
      select poster_id as user_id from issue where id = ${issueId} and poster_id is not null
      union select assignee_id from issue_assignees where issue_id = ${issueId}
      union select poster_id from comment where issue_id = ${issueId} and type in (0, 21, 22) and poster_id is not null
      union select user_id from issue_user where issue_id = ${issueId} and is_mentioned
      union select user_id from issue_watch where issue_id = ${issueId} and is_watching
    ) as recipient
    where recipient.user_id <> ${actorId}
      and not exists (select 1 from issue_watch where issue_watch.issue_id = ${issueId}
        and issue_watch.user_id = recipient.user_id and not issue_watch.is_watching)
    on conflict (user_id, issue_id) where issue_id is not null do update
      set status = 1, comment_id = excluded.comment_id, updated_by = excluded.updated_by,
          updated_at = excluded.updated_at`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
