import type { PackageFile } from "@kiln/domain";
import type { VersionOfPackage } from "@kiln/storage";
import type { NpmMetadata } from "./npm-package.js";
import { compareSemver } from "./semver.js";

/** A version with what its entry in the package document needs. */
export interface DocumentVersion {
  readonly version: VersionOfPackage;
  readonly file: PackageFile;
  readonly tags: readonly string[];
}

/**
 * The package document npm reads before installing (Forgejo's createPackageMetadataResponse):
 * every version with its dependencies and `dist` (sha1 `shasum`, sha512 `integrity`, tarball URL
 * under `registryUrl`), the dist-tags, and the newest version's description, readme and author.
 */
export function npmDocument(
  registryUrl: string,
  versions: readonly DocumentVersion[],
): Record<string, unknown> {
  const sorted = [...versions].sort((a, b) =>
    compareSemver(a.version.version.version, b.version.version.version),
  );
  const latest = sorted[sorted.length - 1];
  const entries: Record<string, unknown> = {};
  const distTags: Record<string, string> = {};
  for (const v of sorted) {
    entries[v.version.version.version] = versionEntry(registryUrl, v);
    for (const tag of v.tags) distTags[tag] = v.version.version.version;
  }
  const meta = (latest?.version.version.metadata ?? {}) as NpmMetadata;
  const name = latest?.version.package.name ?? "";
  return {
    _id: name,
    name,
    description: meta.description ?? "",
    "dist-tags": distTags,
    versions: entries,
    ...(meta.readme ? { readme: meta.readme } : {}),
    ...(meta.project_url ? { homepage: meta.project_url } : {}),
    author: { name: meta.author ?? "" },
    ...(meta.license ? { license: meta.license } : {}),
    ...(meta.repository ? { repository: meta.repository } : {}),
  };
}

function versionEntry(registryUrl: string, v: DocumentVersion): Record<string, unknown> {
  const meta = (v.version.version.metadata ?? {}) as NpmMetadata;
  const name = v.version.package.name;
  const version = v.version.version.version;
  const maps = {
    dependencies: meta.dependencies,
    bundleDependencies: meta.bundleDependencies,
    devDependencies: meta.development_dependencies,
    peerDependencies: meta.peer_dependencies,
    optionalDependencies: meta.optional_dependencies,
    bin: meta.bin,
  };
  return {
    _id: `${name}@${version}`,
    name,
    version,
    description: meta.description ?? "",
    author: { name: meta.author ?? "" },
    ...(meta.project_url ? { homepage: meta.project_url } : {}),
    ...(meta.license ? { license: meta.license } : {}),
    ...Object.fromEntries(Object.entries(maps).filter(([, value]) => value !== undefined)),
    ...(meta.readme ? { readme: meta.readme } : {}),
    dist: {
      integrity: `sha512-${Buffer.from(v.file.hashSha512, "hex").toString("base64")}`,
      shasum: v.file.hashSha1,
      tarball: `${registryUrl}/${encodeURIComponent(name)}/-/${encodeURIComponent(version)}/${encodeURIComponent(v.file.lowerName)}`,
    },
  };
}

/**
 * npm's search answer (Forgejo's createPackageSearchResponse): one object per package with its
 * scope (`unscoped` without one), name, newest version and its date, description, author,
 * keywords and links, and the owner as publisher. `maintainers` is empty but present: the npm
 * CLI reads it.
 */
export function npmSearchResult(
  registryUrl: string,
  ownerName: string,
  latest: readonly VersionOfPackage[],
  total: number,
): { objects: unknown[]; total: number } {
  return {
    objects: latest.map((v) => {
      const meta = (v.version.metadata ?? {}) as NpmMetadata;
      return {
        package: {
          scope: meta.scope || "unscoped",
          name: meta.name ?? v.package.name,
          version: v.version.version,
          date: v.version.createdAt.toISOString(),
          description: meta.description ?? "",
          author: { name: meta.author ?? "" },
          publisher: { name: ownerName },
          maintainers: [],
          ...(meta.keywords && meta.keywords.length > 0 ? { keywords: meta.keywords } : {}),
          links: { npm: registryUrl, ...(meta.project_url ? { homepage: meta.project_url } : {}) },
        },
      };
    }),
    total,
  };
}
