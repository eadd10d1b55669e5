import type { Paged, PageRequest } from "@kiln/domain";
import type { Insertable, Updateable } from "kysely";
import type { Db } from "../database.js";
import type { ReleaseRow, ReleaseTable } from "../database-attachments.js";
import { pageOf } from "./paging.js";

export type NewRelease = Insertable<ReleaseTable>;
export type ReleaseChanges = Updateable<ReleaseTable>;

/** Filters of a repository's release list (Forgejo's FindReleasesOptions). */
export interface ReleaseFilter {
  readonly includeDrafts: boolean;
  readonly draft?: boolean | undefined;
  readonly prerelease?: boolean | undefined;
  /** Matches the tag name, title or note, case-insensitively. */
  readonly keyword?: string | undefined;
}

export async function insertRelease(db: Db, row: NewRelease): Promise<ReleaseRow> {
  return db.insertInto("release").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findRelease(db: Db, repoId: number, id: number): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom("release")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A release by its tag (case-insensitively, as Forgejo's lower_tag_name). */
export async function findReleaseByTag(db: Db, repoId: number, tag: string): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom("release")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("lowerTagName", "=", tag.toLowerCase())
    .executeTakeFirst();
}

/** The newest published release that is not a pre-release (Forgejo's GetLatestReleaseByRepoID). */
export async function latestRelease(db: Db, repoId: number): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom("release")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("isDraft", "=", false)
    .where("isPrerelease", "=", false)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A page of a repository's releases, newest first. */
export async function listReleases(
  db: Db,
  repoId: number,
  filter: ReleaseFilter,
  page: PageRequest,
): Promise<Paged<ReleaseRow>> {
  let base = db.selectFrom("release").where("repoId", "=", repoId);
  if (!filter.includeDrafts) base = base.where("isDraft", "=", false);
  if (filter.draft !== undefined) base = base.where("isDraft", "=", filter.draft);
  if (filter.prerelease !== undefined) base = base.where("isPrerelease", "=", filter.prerelease);
  if (filter.keyword) {
    const like = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([
        eb("lowerTagName", "like", like),
        eb(eb.fn("lower", ["title"]), "like", like),
        eb(eb.fn("lower", ["note"]), "like", like),
      ]),
    );
  }
  return pageOf(base, (q) => q.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc"), page);
}

export async function updateRelease(
  db: Db,
  id: number,
  changes: ReleaseChanges,
): Promise<ReleaseRow | undefined> {
  return db.updateTable("release").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteRelease(db: Db, id: number): Promise<void> {
  await db.deleteFrom("release").where("id", "=", id).execute();
}
