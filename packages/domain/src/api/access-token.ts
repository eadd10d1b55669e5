import * as v from "valibot";
import { int64 } from "./primitives.js";

/** An access token; `sha1` holds the secret in the response that creates it, else `""`. */
export const AccessToken = v.object({
  id: int64(),
  name: v.string(),
  sha1: v.string(),
  token_last_eight: v.string(),
  scopes: v.array(v.string()),
});

/** Body of `POST /users/{username}/tokens`. */
export const CreateAccessTokenOption = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  scopes: v.optional(v.array(v.string())),
});
