import { type api, formatTime, type PackageFile, type Settings } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import { repoPermissionView } from "../access/repo-rules.js";
import type { PackageView } from "../packages/package-service.js";
import { ghostUser } from "./issue.js";
import { toApiRepository } from "./repository.js";
import { toApiUser } from "./user.js";

/**
 * A package version as Forgejo's `Package` (services/convert.ToPackage): its id is the version's,
 * the repository shows only to a caller who may see it, a deleted uploader shows as Ghost.
 */
export function toApiPackage(
  view: PackageView,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.Package> {
  const { package: pkg, version } = view;
  const repository = view.repository
    ? toApiRepository(
        view.repository.repo,
        view.repository.owner,
        sight,
        repoPermissionView(view.repository.permission),
        settings,
      )
    : null;
  return {
    id: version.id,
    owner: toApiUser(view.owner, sight, settings),
    repository,
    creator: view.creator ? toApiUser(view.creator, sight, settings) : ghostUser(settings),
    type: pkg.type,
    name: pkg.name,
    version: version.version,
    created_at: formatTime(version.createdAt),
    html_url: packageHtmlUrl(settings, view.owner.name, pkg.type, pkg.lowerName, version.lowerVersion),
  };
}

/** Forgejo's VersionHTMLURL: `<root><owner>/-/packages/<type>/<name>/<version>`. */
export function packageHtmlUrl(
  settings: Settings,
  owner: string,
  type: string,
  lowerName: string,
  lowerVersion: string,
): string {
  return `${settings.server.rootUrl}${owner}/-/packages/${type}/${encodeURIComponent(lowerName)}/${encodeURIComponent(lowerVersion)}`;
}

/** A file of a version, as Forgejo's `PackageFile` (sha256 is the blob's key). */
export function toApiPackageFile(file: PackageFile): v.InferOutput<typeof api.PackageFile> {
  return {
    Size: file.size,
    id: file.id,
    name: file.name,
    md5: file.hashMd5,
    sha1: file.hashSha1,
    sha256: file.blobKey,
    sha512: file.hashSha512,
  };
}
