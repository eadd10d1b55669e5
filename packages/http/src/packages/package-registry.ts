import type { PackageOwnerAccess } from "@kiln/service";
import type { AppContext } from "../env.js";

/** A request to a package registry, once its owner is resolved for the caller. */
export interface RegistryRequest {
  readonly c: AppContext;
  readonly method: string;
  readonly owner: PackageOwnerAccess;
  /** The path after `/api/packages/{owner}/{type}/`, split at `/` and percent-decoded. */
  readonly segments: readonly string[];
  /** The same segments still percent-encoded (npm tells `@scope%2Fname` from `@scope/name` by them). */
  readonly rawSegments: readonly string[];
}

/**
 * One package type's registry (Forgejo's routers/api/packages/<type>): it answers the paths under
 * `/api/packages/{owner}/<type>/`, or undefined for a path it does not serve (404). More types plug
 * in by adding theirs to `REGISTRIES` (registry.ts); the owner, the caller, token scopes and errors are
 * handled here for all of them.
 */
export interface PackageRegistry {
  readonly type: string;
  handle(request: RegistryRequest): Promise<Response | undefined>;
  /** The type's error body (generic: plain text; npm: `{"error": …}`). */
  error(status: number, message: string): Response;
}
