import type { Package, PackageVersion, Paged, PageRequest, Repository } from "@kiln/domain";
import type { ExpressionBuilder } from "kysely";
import type { Database, Db } from "../database.js";
import { paged } from "./paging.js";
import { type RepoViewer, repoVisibleTo } from "./repo-visibility.js";
import { REPO_COLUMNS } from "./repositories.js";

/** A version with its package, as lists and lookups by name return them. */
export interface VersionOfPackage {
  readonly package: Package;
  readonly version: PackageVersion;
}

const PACKAGE_COLUMNS = [
  "package.id as pId",
  "package.ownerId as pOwnerId",
  "package.type as pType",
  "package.name as pName",
  "package.lowerName as pLowerName",
  "package.repoId as pRepoId",
  "package.createdAt as pCreatedAt",
] as const;

const VERSION_COLUMNS = [
  "packageVersion.id as vId",
  "packageVersion.packageId as vPackageId",
  "packageVersion.creatorId as vCreatorId",
  "packageVersion.version as vVersion",
  "packageVersion.lowerVersion as vLowerVersion",
  "packageVersion.metadata as vMetadata",
  "packageVersion.createdAt as vCreatedAt",
] as const;

interface JoinedRow {
  pId: number;
  pOwnerId: number;
  pType: string;
  pName: string;
  pLowerName: string;
  pRepoId: number | null;
  pCreatedAt: Date;
  vId: number;
  vPackageId: number;
  vCreatorId: number | null;
  vVersion: string;
  vLowerVersion: string;
  vMetadata: unknown;
  vCreatedAt: Date;
}

function joined(row: JoinedRow): VersionOfPackage {
  return {
    package: {
      id: row.pId,
      ownerId: row.pOwnerId,
      type: row.pType,
      name: row.pName,
      lowerName: row.pLowerName,
      repoId: row.pRepoId,
      createdAt: row.pCreatedAt,
    },
    version: {
      id: row.vId,
      packageId: row.vPackageId,
      creatorId: row.vCreatorId,
      version: row.vVersion,
      lowerVersion: row.vLowerVersion,
      metadata: row.vMetadata,
      createdAt: row.vCreatedAt,
    },
  };
}

function versions(db: Db) {
  return db
    .selectFrom("packageVersion")
    .innerJoin("package", "package.id", "packageVersion.packageId")
    .select([...PACKAGE_COLUMNS, ...VERSION_COLUMNS]);
}

/**
 * The package `(owner, type, lowerName)`, created when missing, and locked for the rest of the
 * transaction (an upsert takes the row lock), so that an upload adding a version and a deletion
 * removing the package's last version never interleave.
 */
export async function lockOrCreatePackage(
  db: Db,
  values: { ownerId: number; type: string; name: string; lowerName: string },
): Promise<Package> {
  return db
    .insertInto("package")
    .values(values)
    .onConflict((oc) =>
      oc.columns(["ownerId", "type", "lowerName"]).doUpdateSet((eb) => ({ name: eb.ref("package.name") })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The package `(owner, type, lowerName)`, locked for the rest of the transaction; undefined when absent. */
export async function lockPackage(
  db: Db,
  ownerId: number,
  type: string,
  lowerName: string,
): Promise<Package | undefined> {
  return db
    .selectFrom("package")
    .selectAll()
    .where("ownerId", "=", ownerId)
    .where("type", "=", type)
    .where("lowerName", "=", lowerName)
    .forUpdate()
    .executeTakeFirst();
}

/** The package `(owner, type, lowerName)`, or undefined. */
export async function findPackage(
  db: Db,
  ownerId: number,
  type: string,
  lowerName: string,
): Promise<Package | undefined> {
  return db
    .selectFrom("package")
    .selectAll()
    .where("ownerId", "=", ownerId)
    .where("type", "=", type)
    .where("lowerName", "=", lowerName)
    .executeTakeFirst();
}

/** Inserts a version; undefined when the package has this version already. */
export async function insertVersion(
  db: Db,
  values: { packageId: number; creatorId: number | null; version: string; metadata: unknown },
): Promise<PackageVersion | undefined> {
  return db
    .insertInto("packageVersion")
    .values({
      packageId: values.packageId,
      creatorId: values.creatorId,
      version: values.version,
      lowerVersion: values.version.toLowerCase(),
      metadata: JSON.stringify(values.metadata ?? {}),
    })
    .onConflict((oc) => oc.columns(["packageId", "lowerVersion"]).doNothing())
    .returning(["id", "packageId", "creatorId", "version", "lowerVersion", "metadata", "createdAt"])
    .executeTakeFirst();
}

/** The version `lowerVersion` of a package, or undefined. */
export async function findVersionOf(
  db: Db,
  packageId: number,
  lowerVersion: string,
): Promise<PackageVersion | undefined> {
  return db
    .selectFrom("packageVersion")
    .select(["id", "packageId", "creatorId", "version", "lowerVersion", "metadata", "createdAt"])
    .where("packageId", "=", packageId)
    .where("lowerVersion", "=", lowerVersion)
    .executeTakeFirst();
}

/** A version by its owner, type, package name and version (names compared lower-cased), or undefined. */
export async function findVersion(
  db: Db,
  ownerId: number,
  type: string,
  lowerName: string,
  lowerVersion: string,
): Promise<VersionOfPackage | undefined> {
  const row = await versions(db)
    .where("package.ownerId", "=", ownerId)
    .where("package.type", "=", type)
    .where("package.lowerName", "=", lowerName)
    .where("packageVersion.lowerVersion", "=", lowerVersion)
    .executeTakeFirst();
  return row ? joined(row) : undefined;
}

/** Every version of a package, oldest first. */
export async function versionsOfPackage(db: Db, packageId: number): Promise<VersionOfPackage[]> {
  const rows = await versions(db)
    .where("package.id", "=", packageId)
    .orderBy("packageVersion.createdAt")
    .orderBy("packageVersion.id")
    .execute();
  return rows.map(joined);
}

/** Filters of an owner's package list. */
export interface PackageListFilter {
  readonly ownerId: number;
  /** Only this type. */
  readonly type?: string;
  /** Only names containing this (case-insensitive). */
  readonly query?: string;
  /** Packages linked to a repository show only when this viewer may see the repository. */
  readonly viewer: RepoViewer;
}

/**
 * A page of an owner's package versions, newest first (Forgejo's SearchVersions), with the total.
 * A version of a package linked to a repository the viewer may not see is left out in SQL, so
 * the page and the total count only what is shown.
 */
export async function listVersions(
  db: Db,
  filter: PackageListFilter,
  page: PageRequest,
): Promise<Paged<VersionOfPackage>> {
  const rows = filtered(versions(db), filter)
    .orderBy("packageVersion.createdAt", "desc")
    .orderBy("packageVersion.id", "desc");
  const count = filtered(versions(db), filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll().as("count"));
  const result = await paged(rows, count, page);
  return { items: result.items.map(joined), total: result.total };
}

/**
 * The newest version of each of an owner's packages matching `filter` (Forgejo's
 * SearchLatestVersions: the version published last), newest first, `limit` of them from the
 * `offset`-th, with how many packages match. Hidden packages are left out in SQL, as in
 * {@link listVersions}.
 */
export async function searchLatestVersions(
  db: Db,
  filter: PackageListFilter,
  window: { readonly offset: number; readonly limit: number },
): Promise<Paged<VersionOfPackage>> {
  const latest = <Q extends ReturnType<typeof versions>>(q: Q): Q =>
    filtered(q, filter).where((eb) =>
      eb(
        "packageVersion.id",
        "=",
        eb
          .selectFrom("packageVersion as newest")
          .select((inner) => inner.fn.max("newest.id").as("id"))
          .whereRef("newest.packageId", "=", "package.id"),
      ),
    ) as Q;
  const [items, total] = await Promise.all([
    latest(versions(db))
      .orderBy("packageVersion.createdAt", "desc")
      .orderBy("packageVersion.id", "desc")
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
    latest(versions(db))
      .clearSelect()
      .select((eb) => eb.fn.countAll().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: items.map(joined), total: Number(total.count) };
}

/** An owner's versions narrowed by a list filter, hidden packages left out. */
function filtered<Q extends ReturnType<typeof versions>>(q: Q, filter: PackageListFilter): Q {
  let out = q
    .where("package.ownerId", "=", filter.ownerId)
    .where((eb) =>
      eb.or([
        eb("package.repoId", "is", null),
        eb.exists(
          eb
            .selectFrom("repository")
            .select("repository.id")
            .whereRef("repository.id", "=", "package.repoId")
            .where(repoVisibleTo(filter.viewer)),
        ),
      ]),
    ) as Q;
  if (filter.type) out = out.where("package.type", "=", filter.type) as Q;
  if (filter.query) {
    const pattern = `%${filter.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    out = out.where("package.lowerName", "like", pattern) as Q;
  }
  return out;
}

/** How many versions an owner has (Forgejo's LIMIT_TOTAL_OWNER_COUNT counts these). */
export async function countOwnerVersions(db: Db, ownerId: number): Promise<number> {
  const row = await db
    .selectFrom("packageVersion")
    .innerJoin("package", "package.id", "packageVersion.packageId")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("package.ownerId", "=", ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes a version (its files and properties go with it) and answers the sizes of the files it had. */
export async function deleteVersion(db: Db, versionId: number): Promise<number[]> {
  const files = await db
    .deleteFrom("packageFile")
    .where("versionId", "=", versionId)
    .returning("size")
    .execute();
  await db.deleteFrom("packageVersion").where("id", "=", versionId).execute();
  return files.map((f) => Number(f.size));
}

/** Deletes a package that has no version left; true when it did. */
export async function deletePackageIfEmpty(db: Db, packageId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("package")
    .where("id", "=", packageId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("packageVersion")
            .select("packageVersion.id")
            .whereRef("packageVersion.packageId", "=", "package.id"),
        ),
      ),
    )
    .executeTakeFirst();
  return (r.numDeletedRows ?? 0n) > 0n;
}

/** The repositories packages are linked to, by id, in one query. */
export async function linkedRepositories(db: Db, repoIds: readonly number[]): Promise<Repository[]> {
  if (repoIds.length === 0) return [];
  return db.selectFrom("repository").select(REPO_COLUMNS).where("repository.id", "in", repoIds).execute();
}

/** Links a package to a repository, or unlinks it (null). */
export async function setRepositoryLink(db: Db, packageId: number, repoId: number | null): Promise<void> {
  await db.updateTable("package").set({ repoId }).where("id", "=", packageId).execute();
}

/** Package versions counting against an owner, largest first (size: the sum of their files). */
export async function usedPackages(
  db: Db,
  ownerId: number,
  page: PageRequest,
  options: { readonly publicOnly?: boolean } = {},
): Promise<Paged<VersionOfPackage & { size: number }>> {
  // A public-only caller sees no package linked to a private repository.
  const publicOnly = options.publicOnly === true;
  const linkedToPrivate = (eb: ExpressionBuilder<Database, "package">) =>
    eb.exists(
      eb
        .selectFrom("repository")
        .select("repository.id")
        .whereRef("repository.id", "=", "package.repoId")
        .where("repository.isPrivate", "=", true),
    );
  const rows = db
    .selectFrom("packageVersion")
    .innerJoin("package", "package.id", "packageVersion.packageId")
    .innerJoin("packageFile", "packageFile.versionId", "packageVersion.id")
    .where("package.ownerId", "=", ownerId)
    .$if(publicOnly, (q) => q.where((eb) => eb.not(linkedToPrivate(eb))))
    .groupBy(["package.id", "packageVersion.id"])
    .select([...PACKAGE_COLUMNS, ...VERSION_COLUMNS])
    .select((eb) => eb.fn.sum<number>("packageFile.size").as("size"))
    .orderBy("size", "desc")
    .orderBy("packageVersion.id");
  const count = db
    .selectFrom("packageVersion")
    .innerJoin("package", "package.id", "packageVersion.packageId")
    .where("package.ownerId", "=", ownerId)
    .$if(publicOnly, (q) => q.where((eb) => eb.not(linkedToPrivate(eb))))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("packageFile")
          .select("packageFile.id")
          .whereRef("packageFile.versionId", "=", "packageVersion.id"),
      ),
    )
    .select((eb) => eb.fn.countAll().as("count"));
  const result = await paged(rows, count, page);
  return { items: result.items.map((r) => ({ ...joined(r), size: Number(r.size) })), total: result.total };
}

// Files, version properties and the recount of the ledger's `packages` live beside.
export * from "./package-files.js";
