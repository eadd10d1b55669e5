import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";

/** Forgejo's BlockedUser: the id of a blocked account and when it was blocked. */
export const BlockedUser = v.object({
  block_id: int64(),
  created_at: dateTime(),
});
export type BlockedUser = v.InferOutput<typeof BlockedUser>;

/** Forgejo's RenameOrgOption (`POST /orgs/{org}/rename`). */
export const RenameOrgOption = v.object({
  new_name: v.pipe(
    v.string(),
    v.maxLength(40, "new_name must be at most 40 characters"),
    v.description("New username for this org. This name cannot be in use yet by any other user."),
  ),
});
export type RenameOrgOption = v.InferOutput<typeof RenameOrgOption>;
