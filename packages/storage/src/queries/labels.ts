import type { Label, Paged, PageRequest } from "@kiln/domain";
import { type ExpressionBuilder, sql } from "kysely";
import type { Database, Db } from "../database.js";
import type { LabelTable } from "../database-issues.js";
import { paged, pageOf } from "./paging.js";

const LABEL_COLUMNS = [
  "label.id",
  "label.repoId",
  "label.orgId",
  "label.name",
  "label.exclusive",
  "label.description",
  "label.color",
  "label.numIssues",
  "label.numClosedIssues",
  "label.archivedAt",
  "label.createdAt",
  "label.updatedAt",
] as const;

/** Whose labels: a repository's or an organization's. */
export type LabelScope = { readonly repoId: number } | { readonly orgId: number };

/** Label list orders (Forgejo's `sort`): name (default), reverse name, fewest or most issues. */
export type LabelSort = "alphabetically" | "reversealphabetically" | "leastissues" | "mostissues";

export interface NewLabel {
  readonly name: string;
  readonly color: string;
  readonly description: string;
  readonly exclusive: boolean;
  readonly archived: boolean;
}

/** The condition "belongs to this scope" on the `label` table. */
function inScope(scope: LabelScope) {
  return (eb: ExpressionBuilder<Database, "label">) =>
    "repoId" in scope ? eb("label.repoId", "=", scope.repoId) : eb("label.orgId", "=", scope.orgId);
}

export async function insertLabel(db: Db, scope: LabelScope, label: NewLabel): Promise<Label> {
  return db
    .insertInto("label")
    .values({
      repoId: "repoId" in scope ? scope.repoId : null,
      orgId: "orgId" in scope ? scope.orgId : null,
      name: label.name,
      color: label.color,
      description: label.description,
      exclusive: label.exclusive,
      archivedAt: label.archived ? new Date() : null,
    })
    .returning(LABEL_COLUMNS.map((c) => c.slice("label.".length) as keyof LabelTable))
    .executeTakeFirstOrThrow() as Promise<Label>;
}

/** The label with this id in this scope. */
export async function findLabel(db: Db, scope: LabelScope, id: number): Promise<Label | undefined> {
  return db
    .selectFrom("label")
    .select(LABEL_COLUMNS)
    .where("label.id", "=", id)
    .where(inScope(scope))
    .executeTakeFirst();
}

/** Labels by id, in any scope (for showing timeline events). */
export async function labelsByIds(db: Db, ids: readonly number[]): Promise<Label[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("label")
    .select(LABEL_COLUMNS)
    .where("label.id", "in", [...ids])
    .execute();
}

/** The first label with exactly this name in this scope (names are not unique, as in Forgejo). */
export async function findLabelByName(db: Db, scope: LabelScope, name: string): Promise<Label | undefined> {
  return db
    .selectFrom("label")
    .select(LABEL_COLUMNS)
    .where("label.name", "=", name)
    .where(inScope(scope))
    .orderBy("label.id")
    .executeTakeFirst();
}

/** A scope's labels in `sort` order; a page of them, or all when `page` is undefined, with the total. */
export async function listLabels(
  db: Db,
  scope: LabelScope,
  sort: LabelSort,
  page: PageRequest | undefined,
): Promise<Paged<Label>> {
  let rows = db.selectFrom("label").select(LABEL_COLUMNS).where(inScope(scope));
  const open = sql<number>`label.num_issues - label.num_closed_issues`;
  if (sort === "reversealphabetically") rows = rows.orderBy("label.name", "desc");
  else if (sort === "leastissues") rows = rows.orderBy(open, "asc").orderBy("label.name");
  else if (sort === "mostissues") rows = rows.orderBy(open, "desc").orderBy("label.name");
  else rows = rows.orderBy("label.name");
  rows = rows.orderBy("label.id");
  const count = db
    .selectFrom("label")
    .select((eb) => eb.fn.countAll().as("count"))
    .where(inScope(scope));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}

/** The columns a label edit may change. */
export interface LabelChanges {
  readonly name?: string;
  readonly color?: string;
  readonly description?: string;
  readonly exclusive?: boolean;
  readonly archivedAt?: Date | null;
}

export async function updateLabel(db: Db, id: number, changes: LabelChanges): Promise<void> {
  await db
    .updateTable("label")
    .set({ ...changes, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
}

export async function deleteLabel(db: Db, id: number): Promise<void> {
  await db.deleteFrom("label").where("id", "=", id).execute();
}

/** The labels with these ids that a repository may use: its own and its owner organization's. */
export async function usableLabelsByIds(
  db: Db,
  repoId: number,
  ownerId: number,
  ids: readonly number[],
): Promise<Label[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("label")
    .select(LABEL_COLUMNS)
    .where("label.id", "in", [...ids])
    .where((eb) => eb.or([eb("label.repoId", "=", repoId), eb("label.orgId", "=", ownerId)]))
    .orderBy("label.name")
    .orderBy("label.id")
    .execute();
}

/** The labels with these names that a repository may use: its own and its owner organization's. */
export async function usableLabelsByNames(
  db: Db,
  repoId: number,
  ownerId: number,
  names: readonly string[],
): Promise<Label[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom("label")
    .select(LABEL_COLUMNS)
    .where("label.name", "in", [...names])
    .where((eb) => eb.or([eb("label.repoId", "=", repoId), eb("label.orgId", "=", ownerId)]))
    .orderBy("label.name")
    .orderBy("label.id")
    .execute();
}

/** The labels of each issue, by issue id, sorted by name (one query for all). */
export async function labelsOfIssues(db: Db, issueIds: readonly number[]): Promise<Map<number, Label[]>> {
  const byIssue = new Map<number, Label[]>();
  if (issueIds.length === 0) return byIssue;
  const rows = await db
    .selectFrom("issueLabel")
    .innerJoin("label", "label.id", "issueLabel.labelId")
    .select([...LABEL_COLUMNS, "issueLabel.issueId"])
    .where("issueLabel.issueId", "in", [...issueIds])
    .orderBy("label.name")
    .orderBy("label.id")
    .execute();
  for (const { issueId, ...label } of rows) {
    const list = byIssue.get(issueId) ?? [];
    list.push(label);
    byIssue.set(issueId, list);
  }
  return byIssue;
}

/** A page of one issue's labels, sorted by name, with their total. */
export async function listIssueLabels(db: Db, issueId: number, page: PageRequest): Promise<Paged<Label>> {
  const base = db
    .selectFrom("issueLabel")
    .innerJoin("label", "label.id", "issueLabel.labelId")
    .where("issueLabel.issueId", "=", issueId);
  return pageOf(base, (q) => q.select(LABEL_COLUMNS).orderBy("label.name").orderBy("label.id"), page);
}

/** Recounts the open and closed issues of these labels (in the transaction of the change). */
export async function recountLabels(db: Db, labelIds: readonly number[]): Promise<void> {
  if (labelIds.length === 0) return;
  await db
    .updateTable("label")
    .set({
      numIssues: sql`(select count(*) from issue_label where issue_label.label_id = label.id)`,
      numClosedIssues: sql`(select count(*) from issue_label join issue on issue.id = issue_label.issue_id
        where issue_label.label_id = label.id and issue.is_closed)`,
    })
    .where("id", "in", [...new Set(labelIds)])
    .execute();
}
