import * as v from "valibot";
import { dateTime, emailString, int64 } from "./primitives.js";

const visibility = () => v.picklist(["public", "limited", "private"]);

/** A user (or organization seen as a user), as Forgejo's `User`. */
export const User = v.object({
  id: int64(),
  login: v.string(),
  login_name: v.string(),
  source_id: int64(),
  full_name: v.string(),
  email: v.string(),
  avatar_url: v.string(),
  html_url: v.string(),
  language: v.string(),
  is_admin: v.boolean(),
  last_login: dateTime(),
  created: dateTime(),
  restricted: v.boolean(),
  active: v.boolean(),
  prohibit_login: v.boolean(),
  location: v.string(),
  pronouns: v.string(),
  website: v.string(),
  description: v.string(),
  visibility: v.string(),
  followers_count: int64(),
  following_count: int64(),
  starred_repos_count: int64(),
  username: v.string(),
});

/** Body of `POST /admin/users`. */
export const CreateUserOption = v.object({
  username: v.pipe(v.string(), v.maxLength(40)),
  email: v.pipe(emailString(), v.maxLength(254)),
  password: v.optional(v.pipe(v.string(), v.maxLength(255))),
  full_name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  login_name: v.optional(v.string()),
  source_id: v.optional(int64()),
  must_change_password: v.optional(v.boolean()),
  restricted: v.optional(v.boolean()),
  send_notify: v.optional(v.boolean()),
  visibility: v.optional(visibility()),
  created_at: v.optional(dateTime()),
});

/** Body of `PATCH /admin/users/{username}`; absent fields stay unchanged. */
export const EditUserOption = v.object({
  active: v.optional(v.boolean()),
  admin: v.optional(v.boolean()),
  allow_create_organization: v.optional(v.boolean()),
  allow_git_hook: v.optional(v.boolean()),
  allow_import_local: v.optional(v.boolean()),
  description: v.optional(v.pipe(v.string(), v.maxLength(255))),
  email: v.optional(v.pipe(emailString(), v.maxLength(254))),
  full_name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  location: v.optional(v.pipe(v.string(), v.maxLength(50))),
  login_name: v.optional(v.string()),
  max_repo_creation: v.optional(int64()),
  must_change_password: v.optional(v.boolean()),
  password: v.optional(v.pipe(v.string(), v.maxLength(255))),
  prohibit_login: v.optional(v.boolean()),
  pronouns: v.optional(v.string()),
  restricted: v.optional(v.boolean()),
  source_id: v.optional(int64()),
  visibility: v.optional(visibility()),
  website: v.optional(v.pipe(v.string(), v.maxLength(255))),
});

/** The authenticated user's settings (`GET /user/settings`). */
export const UserSettings = v.object({
  full_name: v.string(),
  website: v.string(),
  description: v.string(),
  location: v.string(),
  pronouns: v.string(),
  language: v.string(),
  theme: v.string(),
  diff_view_style: v.string(),
  hide_email: v.boolean(),
  hide_activity: v.boolean(),
  hide_pronouns: v.boolean(),
  enable_repo_unit_hints: v.boolean(),
});

/** Body of `PATCH /user/settings`; absent fields stay unchanged. */
export const UserSettingsOptions = v.object({
  full_name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  website: v.optional(v.pipe(v.string(), v.maxLength(255))),
  description: v.optional(v.pipe(v.string(), v.maxLength(255))),
  location: v.optional(v.pipe(v.string(), v.maxLength(50))),
  pronouns: v.optional(v.pipe(v.string(), v.maxLength(50))),
  language: v.optional(v.string()),
  theme: v.optional(v.string()),
  diff_view_style: v.optional(v.string()),
  hide_email: v.optional(v.boolean()),
  hide_activity: v.optional(v.boolean()),
  hide_pronouns: v.optional(v.boolean()),
  enable_repo_unit_hints: v.optional(v.boolean()),
});

/** The list returned by `GET /users/search`. */
export const UserSearchResults = v.object({
  ok: v.boolean(),
  data: v.array(User),
});
