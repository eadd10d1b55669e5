import * as v from "valibot";
import { dateTime } from "./primitives.js";

/** A push mirror of a repository, as Forgejo's `PushMirror` (credentials are never shown). */
export const PushMirror = v.object({
  repo_name: v.string(),
  remote_name: v.string(),
  remote_address: v.string(),
  created: dateTime(),
  /** Null until the first sync. */
  last_update: v.nullable(dateTime()),
  last_error: v.string(),
  interval: v.string(),
  sync_on_commit: v.boolean(),
  public_key: v.string(),
});

/** Body of `POST /repos/{owner}/{repo}/push_mirrors`, as Forgejo's `CreatePushMirrorOption`. */
export const CreatePushMirrorOption = v.object({
  remote_address: v.pipe(v.string(), v.maxLength(2048)),
  remote_username: v.optional(v.pipe(v.string(), v.maxLength(255))),
  remote_password: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  interval: v.optional(v.pipe(v.string(), v.maxLength(64))),
  sync_on_commit: v.optional(v.boolean()),
  use_ssh: v.optional(v.boolean()),
});
