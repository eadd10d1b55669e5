import * as v from "valibot";

/** Body of `POST /admin/users/{username}/rename`. */
export const RenameUserOption = v.object({
  new_username: v.pipe(
    v.string(),
    v.maxLength(40, "new_username must be at most 40 characters"),
    v.description("New username for this user. This name cannot be in use yet by any other user."),
  ),
});
