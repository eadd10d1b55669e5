import { type Comment, CommentType, type Paged, type PageRequest } from "@kiln/domain";
import type { Insertable } from "kysely";
import type { Db } from "../database.js";
import type { CommentTable } from "../database-issues.js";
import { issueReadableBy } from "./issues.js";
import { paged } from "./paging.js";
import type { RepoViewer } from "./repo-visibility.js";

const COMMENT_COLUMNS = [
  "comment.id",
  "comment.type",
  "comment.issueId",
  "comment.posterId",
  "comment.content",
  "comment.labelId",
  "comment.oldMilestoneId",
  "comment.milestoneId",
  "comment.assigneeId",
  "comment.removedAssignee",
  "comment.oldTitle",
  "comment.newTitle",
  "comment.oldRef",
  "comment.newRef",
  "comment.dependentIssueId",
  "comment.timeId",
  "comment.reviewId",
  "comment.commitSha",
  "comment.createdAt",
  "comment.updatedAt",
] as const;

/** A new comment or timeline event; unset event fields stay empty. */
export type NewComment = Omit<Insertable<CommentTable>, "id" | "search" | "createdAt" | "updatedAt"> & {
  readonly type: number;
};

/** A time window on a date column (both ends inclusive). */
export interface Window {
  readonly since?: Date | undefined;
  readonly before?: Date | undefined;
}

/** Whether the issue's timeline already refers to this commit (Forgejo adds one `commit_ref` per commit). */
export async function hasCommitRef(db: Db, issueId: number, commitSha: string): Promise<boolean> {
  const row = await db
    .selectFrom("comment")
    .select("id")
    .where("issueId", "=", issueId)
    .where("type", "=", CommentType.commitRef)
    .where("commitSha", "=", commitSha)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertComment(db: Db, comment: NewComment, at: Date): Promise<Comment> {
  return db
    .insertInto("comment")
    .values({ ...comment, createdAt: at, updatedAt: at })
    .returning(COMMENT_COLUMNS.map((c) => c.slice("comment.".length) as keyof CommentTable & string))
    .executeTakeFirstOrThrow() as unknown as Promise<Comment>;
}

/** A comment with the repository and number of its issue (to check the route's repository). */
export async function findComment(
  db: Db,
  id: number,
): Promise<(Comment & { readonly repoId: number; readonly isPull: boolean }) | undefined> {
  return db
    .selectFrom("comment")
    .innerJoin("issue", "issue.id", "comment.issueId")
    .select([...COMMENT_COLUMNS, "issue.repoId", "issue.isPull"])
    .where("comment.id", "=", id)
    .executeTakeFirst();
}

/** A page of an issue's plain comments, oldest first, updated within the window, with their total. */
export async function listIssueComments(
  db: Db,
  issueId: number,
  window: Window,
  page: PageRequest,
): Promise<Paged<Comment>> {
  let base = db.selectFrom("comment").where("comment.issueId", "=", issueId).where("comment.type", "=", 0);
  if (window.since) base = base.where("comment.updatedAt", ">=", window.since);
  if (window.before) base = base.where("comment.updatedAt", "<=", window.before);
  const rows = base.select(COMMENT_COLUMNS).orderBy("comment.createdAt").orderBy("comment.id");
  return paged(
    rows,
    base.select((eb) => eb.fn.countAll().as("count")),
    page,
  );
}

/**
 * A repository's plain comments (of issues, pull requests or both), oldest first, updated within
 * the window; a page of them, or all when `page` is undefined, with the total.
 */
export async function listRepoComments(
  db: Db,
  repoId: number,
  window: Window,
  isPull: boolean | undefined,
  page: PageRequest | undefined,
): Promise<Paged<Comment & { readonly issueIndex: number; readonly isPull: boolean }>> {
  let base = db
    .selectFrom("comment")
    .innerJoin("issue", "issue.id", "comment.issueId")
    .where("issue.repoId", "=", repoId)
    .where("comment.type", "=", 0);
  if (isPull !== undefined) base = base.where("issue.isPull", "=", isPull);
  if (window.since) base = base.where("comment.updatedAt", ">=", window.since);
  if (window.before) base = base.where("comment.updatedAt", "<=", window.before);
  const rows = base
    .select([...COMMENT_COLUMNS, "issue.index as issueIndex", "issue.isPull"])
    .orderBy("comment.createdAt")
    .orderBy("comment.id");
  const count = base.select((eb) => eb.fn.countAll().as("count"));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}

/**
 * An issue's timeline: every comment and event except review code comments, oldest first,
 * updated within the window; a page of it, or all of it when `page` is undefined, with the total.
 * A dependency event shows only when `viewer` may read the issue it names ({@link issueReadableBy}),
 * decided in SQL so that the total and the pages count only what is shown.
 */
export async function listTimeline(
  db: Db,
  issueId: number,
  window: Window,
  viewer: RepoViewer,
  page: PageRequest | undefined,
): Promise<Paged<Comment>> {
  let base = db
    .selectFrom("comment")
    .where("comment.issueId", "=", issueId)
    .where("comment.type", "!=", CommentType.code)
    .where((eb) =>
      eb.or([
        eb("comment.type", "not in", [CommentType.addDependency, CommentType.removeDependency]),
        eb.exists(
          eb
            .selectFrom("issue")
            .select("issue.id")
            .whereRef("issue.id", "=", "comment.dependentIssueId")
            .where(issueReadableBy(viewer)),
        ),
      ]),
    );
  if (window.since) base = base.where("comment.updatedAt", ">=", window.since);
  if (window.before) base = base.where("comment.updatedAt", "<=", window.before);
  const rows = base.select(COMMENT_COLUMNS).orderBy("comment.createdAt").orderBy("comment.id");
  const count = base.select((eb) => eb.fn.countAll().as("count"));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}

export async function updateCommentContent(db: Db, id: number, content: string, at: Date): Promise<void> {
  await db.updateTable("comment").set({ content, updatedAt: at }).where("id", "=", id).execute();
}

export async function deleteComment(db: Db, id: number): Promise<void> {
  await db.deleteFrom("comment").where("id", "=", id).execute();
}
