import * as v from "valibot";

/**
 * The longest `image` accepted in an avatar body: the base64 of a 6 MiB file, above Forgejo's
 * default `[picture] AVATAR_MAX_FILE_SIZE` of 1 MiB (the decoded size is checked against the setting).
 */
export const AVATAR_BODY_LIMIT = 8 * 1024 * 1024;

const image = v.pipe(
  v.string(),
  v.maxLength(AVATAR_BODY_LIMIT, `image must be at most ${AVATAR_BODY_LIMIT} base64 characters`),
  v.description("image must be base64 encoded"),
);

/** Body of `POST /user/avatar` and `POST /orgs/{org}/avatar`. */
export const UpdateUserAvatarOption = v.object({ image });

/** Body of `POST /repos/{owner}/{repo}/avatar`. */
export const UpdateRepoAvatarOption = v.object({ image });
