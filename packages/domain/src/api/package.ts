import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";
import { Repository } from "./repository.js";
import { User } from "./user.js";

/** A package version, as Forgejo's `Package` (`id` is the version's id). */
export const Package = v.object({
  id: int64(),
  owner: User,
  /** The linked repository, shown only to callers who may see it. */
  repository: v.optional(v.nullable(Repository)),
  creator: User,
  type: v.string(),
  name: v.string(),
  version: v.string(),
  created_at: dateTime(),
  html_url: v.string(),
});

/** A list of package versions. */
export const PackageList = v.array(Package);

/** A file of a package version, as Forgejo's `PackageFile` (note the capital `Size`). */
export const PackageFile = v.object({
  Size: int64(),
  id: int64(),
  name: v.string(),
  md5: v.string(),
  sha1: v.string(),
  sha256: v.string(),
  sha512: v.string(),
});

/** The files of a package version. */
export const PackageFileList = v.array(PackageFile);
