/**
 * Forgejo's package types (`models/packages.Type`), the values `?type=` of `GET /packages/{owner}`
 * takes. Kiln serves the registries of some of them ({@link SERVED_PACKAGE_TYPES}); the others are
 * known names so that a filter by them answers an empty list rather than an error.
 */
export const PACKAGE_TYPES = [
  "alpine",
  "alt",
  "arch",
  "cargo",
  "chef",
  "composer",
  "conan",
  "conda",
  "container",
  "cran",
  "debian",
  "generic",
  "go",
  "helm",
  "maven",
  "npm",
  "nuget",
  "pub",
  "pypi",
  "rpm",
  "rubygems",
  "swift",
  "vagrant",
] as const;

export type PackageType = (typeof PACKAGE_TYPES)[number];

/** Forgejo's display name of a type (`Type.Name()`), as the quota lists show it. */
export function packageTypeName(type: string): string {
  const names: Readonly<Record<string, string>> = {
    generic: "Generic",
    npm: "npm",
    pypi: "PyPI",
    nuget: "NuGet",
    rubygems: "RubyGems",
    cran: "CRAN",
    rpm: "RPM",
    go: "Go",
  };
  return names[type] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

/** A package: a name of a type, owned by a user or an organization, maybe linked to a repository. */
export interface Package {
  readonly id: number;
  readonly ownerId: number;
  readonly type: string;
  readonly name: string;
  readonly lowerName: string;
  /** The linked repository (same owner), or null. */
  readonly repoId: number | null;
  readonly createdAt: Date;
}

/** A version of a package, with the metadata its type stored (npm's package.json fields). */
export interface PackageVersion {
  readonly id: number;
  readonly packageId: number;
  readonly creatorId: number | null;
  readonly version: string;
  readonly lowerVersion: string;
  readonly metadata: unknown;
  readonly createdAt: Date;
}

/** A file of a package version: a name and the blob (by sha256) holding its bytes. */
export interface PackageFile {
  readonly id: number;
  readonly versionId: number;
  readonly name: string;
  readonly lowerName: string;
  readonly isLead: boolean;
  /** The blob store key: the sha256 of the bytes, in hex. */
  readonly blobKey: string;
  readonly size: number;
  readonly hashMd5: string;
  readonly hashSha1: string;
  readonly hashSha512: string;
  readonly createdAt: Date;
}
