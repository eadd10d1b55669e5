import type { PackageFile } from "@kiln/domain";
import type { Db } from "../database.js";
import type { UsageSource } from "./usage-source.js";

/** What a new file records: its name and the blob holding its bytes, with the blob's size and hashes. */
export interface NewPackageFile {
  readonly versionId: number;
  readonly name: string;
  readonly isLead: boolean;
  readonly blobKey: string;
  readonly size: number;
  readonly hashMd5: string;
  readonly hashSha1: string;
  readonly hashSha512: string;
}

const FILE_COLUMNS = [
  "id",
  "versionId",
  "name",
  "lowerName",
  "isLead",
  "blobKey",
  "size",
  "hashMd5",
  "hashSha1",
  "hashSha512",
  "createdAt",
] as const;

/** Inserts a file; undefined when the version has a file of that name already. */
export async function insertFile(db: Db, file: NewPackageFile): Promise<PackageFile | undefined> {
  return db
    .insertInto("packageFile")
    .values({ ...file, lowerName: file.name.toLowerCase() })
    .onConflict((oc) => oc.columns(["versionId", "lowerName", "compositeKey"]).doNothing())
    .returning(FILE_COLUMNS)
    .executeTakeFirst();
}

/** The file `name` (compared lower-cased) of a version, or undefined. */
export async function findFile(db: Db, versionId: number, name: string): Promise<PackageFile | undefined> {
  return db
    .selectFrom("packageFile")
    .select(FILE_COLUMNS)
    .where("versionId", "=", versionId)
    .where("lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
}

/** The files of some versions, lead file first, then by name. */
export async function filesOfVersions(
  db: Db,
  versionIds: readonly number[],
): Promise<Map<number, PackageFile[]>> {
  const out = new Map<number, PackageFile[]>(versionIds.map((id) => [id, []]));
  if (versionIds.length === 0) return out;
  const rows = await db
    .selectFrom("packageFile")
    .select(FILE_COLUMNS)
    .where("versionId", "in", versionIds)
    .orderBy("isLead", "desc")
    .orderBy("lowerName")
    .orderBy("id")
    .execute();
  for (const row of rows) out.get(row.versionId)?.push(row);
  return out;
}

/** Deletes a file; its size when this call deleted it, undefined when it was gone already. */
export async function deleteFile(db: Db, fileId: number): Promise<number | undefined> {
  const row = await db
    .deleteFrom("packageFile")
    .where("id", "=", fileId)
    .returning("size")
    .executeTakeFirst();
  return row ? Number(row.size) : undefined;
}

/** The values of property `name` of some versions, by version. */
export async function versionProperties(
  db: Db,
  versionIds: readonly number[],
  name: string,
): Promise<{ versionId: number; value: string }[]> {
  if (versionIds.length === 0) return [];
  return db
    .selectFrom("packageVersionProperty")
    .select(["versionId", "value"])
    .where("versionId", "in", versionIds)
    .where("name", "=", name)
    .orderBy("id")
    .execute();
}

/** Adds a property to a version. */
export async function addVersionProperty(
  db: Db,
  versionId: number,
  name: string,
  value: string,
): Promise<void> {
  await db.insertInto("packageVersionProperty").values({ versionId, name, value }).execute();
}

/** Removes property `name` = `value` from every version of a package (a dist-tag moves this way). */
export async function removePackageProperty(
  db: Db,
  packageId: number,
  name: string,
  value: string,
): Promise<void> {
  await db
    .deleteFrom("packageVersionProperty")
    .where("name", "=", name)
    .where("value", "=", value)
    .where("versionId", "in", (eb) =>
      eb
        .selectFrom("packageVersion")
        .select("packageVersion.id")
        .where("packageVersion.packageId", "=", packageId),
    )
    .execute();
}

/** Which of these blob keys some package file still names (the blob sweep keeps those). */
export async function referencedBlobKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom("packageFile")
    .select("blobKey")
    .distinct()
    .where("blobKey", "in", keys)
    .execute();
  return new Set(rows.map((r) => r.blobKey));
}

/** Packages: the sizes of their files, summed per package owner (the ledger's `packages`). */
export const packageUsage: UsageSource = async (db, ownerIds) => {
  const rows = await db
    .selectFrom("packageFile")
    .innerJoin("packageVersion", "packageVersion.id", "packageFile.versionId")
    .innerJoin("package", "package.id", "packageVersion.packageId")
    .where("package.ownerId", "in", ownerIds)
    .groupBy("package.ownerId")
    .select((eb) => ["package.ownerId", eb.fn.sum<number>("packageFile.size").as("packages")])
    .execute();
  return new Map(rows.map((r) => [r.ownerId, { packages: Number(r.packages) }]));
};
