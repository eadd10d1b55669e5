import * as v from "valibot";

/**
 * The largest avatar body for a `[picture] AVATAR_MAX_FILE_SIZE`: the base64 of a file that size
 * (4 characters per 3 bytes) and 64 KiB for the JSON around it. The decoded size is then checked
 * against the setting itself, with its own message.
 */
export function avatarBodyLimit(maxFileSize: number): number {
  return Math.ceil(maxFileSize / 3) * 4 + 64 * 1024;
}

const image = v.pipe(v.string(), v.description("image must be base64 encoded"));

/** Body of `POST /user/avatar` and `POST /orgs/{org}/avatar`. */
export const UpdateUserAvatarOption = v.object({ image });

/** Body of `POST /repos/{owner}/{repo}/avatar`. */
export const UpdateRepoAvatarOption = v.object({ image });
