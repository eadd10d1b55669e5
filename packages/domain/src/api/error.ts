import * as v from "valibot";

/** Forgejo's error body: `{"message": …, "url": …}`. */
export const APIError = v.object({
  message: v.string(),
  url: v.string(),
});

/** Forgejo's not-found body, which adds `errors`. */
export const APINotFound = v.object({
  message: v.string(),
  url: v.string(),
  errors: v.array(v.string()),
});
