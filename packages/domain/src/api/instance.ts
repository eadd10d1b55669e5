import * as v from "valibot";
import { int64 } from "./primitives.js";

/** `GET /nodeinfo` (Forgejo's structs.NodeInfo, NodeInfo schema 2.1). */
export const NodeInfo = v.object({
  version: v.string(),
  software: v.object({
    name: v.string(),
    version: v.string(),
    repository: v.string(),
    homepage: v.string(),
  }),
  protocols: v.array(v.string()),
  services: v.object({ inbound: v.array(v.string()), outbound: v.array(v.string()) }),
  openRegistrations: v.boolean(),
  usage: v.object({
    users: v.object({
      total: v.optional(int64()),
      activeHalfyear: v.optional(int64()),
      activeMonth: v.optional(int64()),
    }),
    localPosts: v.optional(int64()),
    localComments: v.optional(int64()),
  }),
  metadata: v.record(v.string(), v.unknown()),
});

/** The longest repository flag name Kiln keeps. */
export const MAX_FLAG_LENGTH = 100;
/** The most flags `PUT /repos/{owner}/{repo}/flags` may set at once. */
export const MAX_FLAGS = 100;

/** `PUT /repos/{owner}/{repo}/flags` (Forgejo's ReplaceFlagsOption). */
export const ReplaceFlagsOption = v.object({
  flags: v.optional(
    v.pipe(
      v.array(
        v.pipe(v.string(), v.trim(), v.minLength(1, "a flag has a name"), v.maxLength(MAX_FLAG_LENGTH)),
      ),
      v.maxLength(MAX_FLAGS),
    ),
    [],
  ),
});

/** `GET /gitignore/templates/{name}` (Forgejo's GitignoreTemplateInfo). */
export const GitignoreTemplateInfo = v.object({ name: v.string(), source: v.string() });

/** One label of `GET /label/templates/{name}` (Forgejo's LabelTemplate; color without `#`). */
export const LabelTemplate = v.object({
  name: v.string(),
  color: v.string(),
  description: v.string(),
  exclusive: v.boolean(),
});
