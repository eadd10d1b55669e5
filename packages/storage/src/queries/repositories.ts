import type { Paged, PageRequest, RepoOrder, Repository } from "@kiln/domain";
import type { Db, NewRepositoryRow, RepositoryUpdate } from "../database.js";
import { cachedRead } from "../read-cache.js";
import { paged } from "./paging.js";
import { deleteRepoRedirect } from "./redirects.js";
import { type RepoViewer, repoAccessibleBy, repoVisibleTo } from "./repo-visibility.js";
import { releaseRepositoryCounters } from "./social-counters.js";
import { repoHasTopic, repoTopicLike } from "./topics.js";

export const REPO_COLUMNS = [
  "repository.id",
  "repository.ownerId",
  "repository.ownerName",
  "repository.name",
  "repository.lowerName",
  "repository.description",
  "repository.website",
  "repository.defaultBranch",
  "repository.isPrivate",
  "repository.isEmpty",
  "repository.isArchived",
  "repository.isMirror",
  "repository.isTemplate",
  "repository.isFork",
  "repository.forkId",
  "repository.numForks",
  "repository.templateId",
  "repository.gitSize",
  "repository.lfsSize",
  "repository.originalUrl",
  "repository.numIssues",
  "repository.numClosedIssues",
  "repository.numPulls",
  "repository.numClosedPulls",
  "repository.numWatches",
  "repository.numStars",
  "repository.pullsConfig",
  "repository.topics",
  "repository.createdAt",
  "repository.updatedAt",
  "repository.avatar",
] as const;

/** Inserts a repository row. A name taken by the owner violates repository_owner_name_key. */
export async function insertRepository(db: Db, values: NewRepositoryRow): Promise<Repository> {
  const row = await db.insertInto("repository").values(values).returning("id").executeTakeFirstOrThrow();
  await deleteRepoRedirect(db, values.ownerId as number, values.name as string);
  return (await findRepositoryById(db, row.id)) as Repository;
}

export async function findRepositoryById(db: Db, id: number): Promise<Repository | undefined> {
  return db.selectFrom("repository").select(REPO_COLUMNS).where("repository.id", "=", id).executeTakeFirst();
}

/** The repository of an owner with this name (case-insensitive). */
export async function findRepositoryByName(
  db: Db,
  ownerId: number,
  name: string,
): Promise<Repository | undefined> {
  return db
    .selectFrom("repository")
    .select(REPO_COLUMNS)
    .where("repository.ownerId", "=", ownerId)
    .where("repository.lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
}

/** Locks a repository row for the rest of the transaction (serializes size and owner changes). */
export async function lockRepository(db: Db, id: number): Promise<Repository | undefined> {
  return db
    .selectFrom("repository")
    .select(REPO_COLUMNS)
    .where("repository.id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

/** Applies a partial update and returns the repository. */
export async function updateRepository(
  db: Db,
  id: number,
  patch: RepositoryUpdate,
): Promise<Repository | undefined> {
  await db
    .updateTable("repository")
    .set({ ...patch, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
  return findRepositoryById(db, id);
}

export async function deleteRepository(db: Db, id: number): Promise<boolean> {
  await releaseRepositoryCounters(db, id);
  const r = await db.deleteFrom("repository").where("id", "=", id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Number of repositories an account owns, whoever looks. */
export async function countOwnedRepositories(db: Db, ownerId: number): Promise<number> {
  const row = await db
    .selectFrom("repository")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("ownerId", "=", ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Number of an account's repositories that `viewer` may see (Kiln's `repos_count`). */
export async function countVisibleRepositories(db: Db, ownerId: number, viewer: RepoViewer): Promise<number> {
  const row = await db
    .selectFrom("repository")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("repository.ownerId", "=", ownerId)
    .where(repoVisibleTo(viewer))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How each order sorts (stars and forks are not counted yet, so they fall back to id). */
const ORDER_COLUMNS = {
  id: [["repository.id", "asc"]],
  name: [["repository.lowerName", "asc"]],
  alphabetically: [["repository.lowerName", "asc"]],
  reversealphabetically: [["repository.lowerName", "desc"]],
  newest: [["repository.createdAt", "desc"]],
  oldest: [["repository.createdAt", "asc"]],
  recentupdate: [["repository.updatedAt", "desc"]],
  leastupdate: [["repository.updatedAt", "asc"]],
  size: [["totalSize", "asc"]],
  reversesize: [["totalSize", "desc"]],
  gitsize: [["repository.gitSize", "asc"]],
  reversegitsize: [["repository.gitSize", "desc"]],
  lfssize: [["repository.lfsSize", "asc"]],
  reverselfssize: [["repository.lfsSize", "desc"]],
  moststars: [["repository.id", "desc"]],
  feweststars: [["repository.id", "asc"]],
  mostforks: [["repository.id", "desc"]],
  fewestforks: [["repository.id", "asc"]],
} as const satisfies Record<RepoOrder, readonly (readonly [string, "asc" | "desc"])[]>;

/** Filters for repository lists. */
export interface RepositoryFilter {
  readonly ownerId?: number;
  /** Only repositories with these ids (e.g. a team's). */
  readonly ids?: readonly number[];
  /** Matches the name (and the description when `includeDescription`). */
  readonly keyword?: string;
  readonly includeDescription?: boolean;
  /** The keyword is a topic: only repositories carrying exactly that topic (Forgejo's `topic=true`). */
  readonly topicOnly?: boolean;
  readonly isPrivate?: boolean;
  readonly isTemplate?: boolean;
  readonly isArchived?: boolean;
  readonly isMirror?: boolean;
  readonly isFork?: boolean;
  /** Only the forks of this repository. */
  readonly forkId?: number;
  /** Only repositories this user owns, collaborates on, or reaches through a team. */
  readonly accessibleBy?: number;
}

/** One page of repositories matching the filter that `viewer` may see; by id unless asked otherwise. */
export async function listVisibleRepositories(
  db: Db,
  filter: RepositoryFilter,
  viewer: RepoViewer,
  page: PageRequest,
  order: RepoOrder = "id",
): Promise<Paged<Repository>> {
  return cachedRead(db, `repo-list:${JSON.stringify([filter, viewer, page, order])}`, () =>
    loadVisibleRepositories(db, filter, viewer, page, order),
  );
}

async function loadVisibleRepositories(
  db: Db,
  filter: RepositoryFilter,
  viewer: RepoViewer,
  page: PageRequest,
  order: RepoOrder,
): Promise<Paged<Repository>> {
  let q = db.selectFrom("repository").where(repoVisibleTo(viewer));
  if (filter.ownerId !== undefined) q = q.where("repository.ownerId", "=", filter.ownerId);
  if (filter.ids !== undefined) {
    if (filter.ids.length === 0) return { items: [], total: 0 };
    q = q.where("repository.id", "in", filter.ids);
  }
  if (filter.isPrivate !== undefined) q = q.where("repository.isPrivate", "=", filter.isPrivate);
  if (filter.isTemplate !== undefined) q = q.where("repository.isTemplate", "=", filter.isTemplate);
  if (filter.isArchived !== undefined) q = q.where("repository.isArchived", "=", filter.isArchived);
  if (filter.isMirror !== undefined) q = q.where("repository.isMirror", "=", filter.isMirror);
  if (filter.isFork !== undefined) q = q.where("repository.isFork", "=", filter.isFork);
  if (filter.forkId !== undefined) q = q.where("repository.forkId", "=", filter.forkId);
  if (filter.accessibleBy !== undefined) q = q.where(repoAccessibleBy(filter.accessibleBy));
  if (filter.keyword && filter.topicOnly) {
    q = q.where(repoHasTopic(filter.keyword.toLowerCase()));
  } else if (filter.keyword) {
    const pattern = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("repository.lowerName", "like", pattern),
        repoTopicLike(pattern)(eb),
        ...(filter.includeDescription
          ? [eb(eb.fn("lower", ["repository.description"]), "like", pattern)]
          : []),
      ]),
    );
  }
  let rows = q.select([
    ...REPO_COLUMNS,
    (eb) => eb("repository.gitSize", "+", eb.ref("repository.lfsSize")).as("totalSize"),
  ]);
  for (const [column, direction] of ORDER_COLUMNS[order]) rows = rows.orderBy(column, direction);
  if (order !== "id") rows = rows.orderBy("repository.id", "asc");
  const found = await paged(
    rows,
    q.select((eb) => eb.fn.countAll<number>().as("count")),
    page,
  );
  return { items: found.items.map(({ totalSize: _, ...repo }) => repo), total: found.total };
}
