import * as v from "valibot";
import { TagArchiveDownloadCount } from "./git.js";
import { dateTime, int64, optionalField } from "./primitives.js";
import { User } from "./user.js";

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
/** Release notes, as long as an issue's body. */
const NOTE_MAX = 1024 * 1024;

/** A file of a release, an issue or a comment (Forgejo's `Attachment`). */
export const Attachment = v.object({
  id: int64(),
  name: v.string(),
  size: int64(),
  download_count: int64(),
  created_at: dateTime(),
  uuid: v.string(),
  browser_download_url: v.string(),
  type: v.picklist(["attachment", "external"]),
});

/** A release (Forgejo's `Release`). */
export const Release = v.object({
  id: int64(),
  tag_name: v.string(),
  target_commitish: v.string(),
  name: v.string(),
  body: v.string(),
  url: v.string(),
  html_url: v.string(),
  tarball_url: v.string(),
  zipball_url: v.string(),
  hide_archive_links: v.boolean(),
  upload_url: v.string(),
  draft: v.boolean(),
  prerelease: v.boolean(),
  created_at: dateTime(),
  published_at: dateTime(),
  author: User,
  assets: v.array(Attachment),
  archive_download_count: TagArchiveDownloadCount,
});

/** Body of `POST /repos/{owner}/{repo}/releases`; `null` is absent, as Go reads it. */
export const CreateReleaseOption = v.object({
  tag_name: v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(255)),
  target_commitish: optionalField(text(255)),
  name: optionalField(text(65536)),
  body: optionalField(text(NOTE_MAX)),
  draft: optionalField(v.boolean()),
  prerelease: optionalField(v.boolean()),
  hide_archive_links: optionalField(v.boolean()),
});

/** Body of `PATCH …/releases/{id}`: empty strings and absent fields change nothing. */
export const EditReleaseOption = v.object({
  tag_name: optionalField(text(255)),
  target_commitish: optionalField(text(255)),
  name: optionalField(text(65536)),
  body: optionalField(text(NOTE_MAX)),
  draft: optionalField(v.boolean()),
  prerelease: optionalField(v.boolean()),
  hide_archive_links: optionalField(v.boolean()),
});

/** Body of `PATCH …/assets/{attachment_id}`: a new name, or a new address for an external one. */
export const EditAttachmentOptions = v.object({
  name: optionalField(text(255)),
  browser_download_url: optionalField(text(2048)),
});
