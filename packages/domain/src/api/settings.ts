import * as v from "valibot";
import { int64 } from "./primitives.js";

/** `GET /settings/api`. */
export const GeneralAPISettings = v.object({
  max_response_items: int64(),
  default_paging_num: int64(),
  default_git_trees_per_page: int64(),
  default_max_blob_size: int64(),
});

/** `GET /settings/ui`. */
export const GeneralUISettings = v.object({
  default_theme: v.string(),
  allowed_reactions: v.array(v.string()),
  custom_emojis: v.array(v.string()),
});

/** `GET /settings/repository`; `max_creation_limit` is the spec's MaxCreationLimit. */
export const GeneralRepoSettings = v.object({
  mirrors_disabled: v.boolean(),
  http_git_disabled: v.boolean(),
  migrations_disabled: v.boolean(),
  stars_disabled: v.boolean(),
  forks_disabled: v.boolean(),
  time_tracking_disabled: v.boolean(),
  lfs_disabled: v.boolean(),
  max_creation_limit: int64(),
});

/** `GET /settings/attachment`. */
export const GeneralAttachmentSettings = v.object({
  enabled: v.boolean(),
  allowed_types: v.string(),
  max_size: int64(),
  max_files: int64(),
});

/** `GET /version`. */
export const ServerVersion = v.object({
  version: v.string(),
});
