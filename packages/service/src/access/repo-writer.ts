import { PermissionDeniedError, type User } from "@kiln/domain";
import type { RepoAccess } from "./access-service.js";

/** The signed-in user a write acts as (routes that write require one). */
export function writerOf(access: RepoAccess): User {
  if (!access.viewer) throw new PermissionDeniedError("token is required");
  return access.viewer;
}
