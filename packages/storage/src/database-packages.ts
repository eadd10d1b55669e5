import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
/** JSON stored as jsonb: read back parsed, written as its text. */
type Json = ColumnType<unknown, string | undefined, string>;

/** A package: a name of a type owned by a user or an organization, maybe linked to a repository. */
export interface PackageTable {
  id: Generated<number>;
  ownerId: number;
  type: string;
  name: string;
  lowerName: string;
  repoId: number | null;
  createdAt: CreatedAt;
}

/** A version of a package, with its type's metadata. */
export interface PackageVersionTable {
  id: Generated<number>;
  packageId: number;
  /** Null once the uploader's account is deleted. */
  creatorId: number | null;
  version: string;
  lowerVersion: string;
  metadata: Json;
  downloadCount: Generated<number>;
  createdAt: CreatedAt;
}

/** A property of a version its type keeps (npm's dist-tags, name `npm.tag`). */
export interface PackageVersionPropertyTable {
  id: Generated<number>;
  versionId: number;
  name: string;
  value: string;
}

/** A file of a version: its name and the blob (sha256 key) holding its bytes, with their size and hashes. */
export interface PackageFileTable {
  id: Generated<number>;
  versionId: number;
  name: string;
  lowerName: string;
  compositeKey: Generated<string>;
  isLead: Generated<boolean>;
  blobKey: string;
  size: number;
  hashMd5: string;
  hashSha1: string;
  hashSha512: string;
  createdAt: CreatedAt;
}

/** The package tables (migration 0013). */
export interface PackageTables {
  package: PackageTable;
  packageVersion: PackageVersionTable;
  packageVersionProperty: PackageVersionPropertyTable;
  packageFile: PackageFileTable;
}
