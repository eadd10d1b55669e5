import { hasScopes, isKilnError } from "@kiln/domain";
import { NO_PACKAGE_PERMISSION } from "@kiln/service";
import { identify } from "../auth.js";
import type { AppContext, Mount } from "../env.js";
import { statusOf } from "../errors.js";
import { genericRegistry } from "./generic.js";
import { npmRegistry } from "./npm.js";
import type { PackageRegistry } from "./package-registry.js";

/** The registries Kiln serves, by type. */
export const REGISTRIES: ReadonlyMap<string, PackageRegistry> = new Map(
  [genericRegistry, npmRegistry].map((r) => [r.type, r]),
);

/** The path of the registries, beside the API and git (`api` is a reserved name: no owner is called that). */
export const REGISTRY_PATH = "/api/packages/:owner/:type/:rest{.+}";

/**
 * Mounts `/api/packages/{owner}/{type}/…` (Forgejo's packages.CommonRoutes): the caller is
 * identified as on the API (a token in `Authorization`, Basic with a password or a token), the
 * owner resolved through the access module (404 when the caller may not see it, whoever asks),
 * and the type's registry answers. Token scopes are `read:package` / `write:package`; a caller
 * without them, or without write access where it is needed, gets Forgejo's 401 with a Basic
 * challenge so that package clients send credentials.
 */
export function mountPackages(mount: Mount): void {
  for (const method of ["get", "put", "post", "delete"] as const) mount(method, REGISTRY_PATH, serve);
}

async function serve(c: AppContext): Promise<Response> {
  const registry = REGISTRIES.get(c.req.param("type") ?? "");
  const plain = registry ?? genericRegistry;
  if (!registry || !c.get("settings").packages.enabled) return plain.error(404, "Not found");
  try {
    await identify(c);
    const [ownerRaw = "", , ...rawSegments] = packagePath(c.req.url);
    const ownerName = decode(ownerRaw);
    const segments = rawSegments.map(decode);
    if ([ownerName, ...segments].some((s) => s === undefined || s.includes("\u0000")))
      return registry.error(404, "Not found");
    const principal = c.get("principal");
    const level = c.req.method === "GET" || c.req.method === "HEAD" ? "read" : "write";
    if (principal?.scopes && !hasScopes(principal.scopes, level, ["package"])) return challenge(registry);
    const owner = await c.get("services").packages.owner(c.get("actor"), ownerName as string);
    const response = await registry.handle({
      c,
      method: c.req.method,
      owner,
      segments: segments as string[],
      rawSegments,
    });
    return response ?? registry.error(404, "Not found");
  } catch (err) {
    if (!isKilnError(err)) {
      c.get("logger").error({ err: (err as Error).message, path: c.req.path }, "package registry error");
      return registry.error(500, "");
    }
    if (
      err.kind === "unauthorized" ||
      (err.kind === "permission_denied" && err.message === NO_PACKAGE_PERMISSION)
    )
      return challenge(registry, err.message);
    return registry.error(statusOf(err.kind), err.message);
  }
}

/** Forgejo's answer to a caller without the access a package route needs: 401 with a Basic challenge. */
function challenge(registry: PackageRegistry, message = NO_PACKAGE_PERMISSION): Response {
  const response = registry.error(401, message);
  response.headers.set("WWW-Authenticate", 'Basic realm="Kiln Package API"');
  return response;
}

/** The still-encoded segments after `/api/packages/`: owner, type, then the type's path. */
function packagePath(url: string): string[] {
  const start = url.indexOf("/api/packages/");
  const end = url.indexOf("?", start);
  return url.slice(start + "/api/packages/".length, end < 0 ? undefined : end).split("/");
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
