import * as v from "valibot";
import { int64 } from "./primitives.js";

/** One of a user's e-mail addresses. */
export const Email = v.object({
  email: v.string(),
  verified: v.boolean(),
  primary: v.boolean(),
  user_id: int64(),
  username: v.string(),
});

/** Body of `POST /user/emails`. */
export const CreateEmailOption = v.object({
  emails: v.optional(v.array(v.string())),
});

/** Body of `DELETE /user/emails`. */
export const DeleteEmailOption = v.object({
  emails: v.optional(v.array(v.string())),
});
