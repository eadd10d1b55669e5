import { isKilnError, LockedError, type Repository, type Settings } from "@kiln/domain";
import { ANONYMOUS, type Logger, type Services } from "@kiln/service";
import { checkAccess, identify } from "./auth.js";
import type { AppContext } from "./env.js";
import { enforceRouteQuota } from "./quota-enforcement.js";
import { checkResponse } from "./response-check.js";
import type { AnyRoute } from "./route.js";
import { checkPathParams, parseBody, parsePathAndQuery } from "./validation.js";

/** What every request of the app is served with. */
export interface RequestScope {
  readonly services: Services;
  readonly settings: Settings;
  readonly logger: Logger;
}

type Input = Parameters<AnyRoute["handler"]>[1];

/** The path parameters of a static path. */
const NO_PARAMS: Record<string, string> = Object.freeze({});
type Outcome = Response | Promise<Response>;

/** Sets the request's variables: the app's services, settings and logger, and an anonymous caller. */
export function enterer(scope: RequestScope): (c: AppContext) => void {
  const { services, settings, logger } = scope;
  return (c) => {
    c.set("services", services);
    c.set("settings", settings);
    c.set("logger", logger);
    c.set("principal", null);
    c.set("actor", ANONYMOUS);
  };
}

/**
 * The one handler Hono runs for an API operation: the caller is identified, the route's access
 * checked, its path and query validated, its repository or organization resolved for the caller
 * (before any body is read), then its body read and validated, its quota enforced, and the
 * route's own handler called. Each step is decided once per route, here, rather than for every
 * request: a route with nothing to wait for (an anonymous call of a route without repository,
 * organization, body or quota) runs synchronously, with no promise between the socket and the
 * answer.
 */
export function apiHandler(
  r: AnyRoute,
  scope: RequestScope,
  validateResponses: boolean,
): (c: AppContext) => Outcome {
  if (r.notArchived && !(r.repo && r.responses[423]))
    throw new Error(`${r.operationId}: notArchived needs a repository route that documents 423`);
  const enter = enterer(scope);
  const { access } = scope.services;
  const waits = Boolean(r.repo || r.org || r.body || r.quota || validateResponses);
  // A static path has no parameters to read or to check for NUL bytes.
  const withParams = r.path.includes("{");
  const renamed = renamable(r.path);

  const complete = async (c: AppContext, path: Record<string, string>, parsed: Input): Promise<Response> => {
    const actor = c.get("actor");
    // `/repos/{template_owner}/{template_repo}/generate` names its repository so in Forgejo's paths.
    const repo = r.repo
      ? await access.repo(
          actor,
          path.owner ?? path.template_owner ?? "",
          path.repo ?? path.template_repo ?? "",
          r.repo,
        )
      : undefined;
    if (r.notArchived && repo?.repo.isArchived) throw repoIsArchived(repo.repo);
    const org = r.org ? await access.org(actor, path.org ?? "", r.org) : undefined;
    const body = r.body ? await parseBody(r, c) : undefined;
    const input = { ...parsed, body, repo, org } as Input;
    if (r.quota) await enforceRouteQuota(r, c, input);
    const response = await r.handler(c, input);
    if (validateResponses) await checkResponse(r, response);
    return response;
  };

  const run = (c: AppContext): Outcome => {
    checkAccess(r, c);
    const path = withParams ? checkPathParams(c) : NO_PARAMS;
    const { params, query } = parsePathAndQuery(r, c, path);
    const parsed = {
      params,
      query,
      body: undefined,
      principal: c.get("principal"),
      repo: undefined,
      org: undefined,
    } as Input;
    const outcome = waits ? complete(c, path, parsed) : r.handler(c, parsed);
    if (!renamed || !(outcome instanceof Promise)) return outcome;
    return outcome.catch((err: unknown) => redirectOr(err, c, renamed, access, path));
  };

  return (c) => {
    enter(c);
    const identifying = identify(c);
    return identifying ? identifying.then(() => run(c)) : run(c);
  };
}

/** Which name of a route's path a rename may have left behind: its repository, organization or user. */
type Renamable = "repo" | "org" | "username";

function renamable(path: string): Renamable | undefined {
  if (path.startsWith("/repos/{owner}/{repo}")) return "repo";
  if (path.startsWith("/orgs/{org}")) return "org";
  if (path.startsWith("/users/{username}")) return "username";
  return undefined;
}

/**
 * Forgejo's RedirectToRepo / RedirectToUser for a route whose repository, organization or user
 * is not found under the name in its path: when a rename or transfer left that name leading to
 * one the caller may see, 307 to the same path under the current name (query kept). Any other
 * error, or no such redirect, is thrown on (a 404 stays a 404). Only names that no account or
 * repository carries have redirects, so a 404 about anything inside (an issue, a file) stays so.
 */
async function redirectOr(
  err: unknown,
  c: AppContext,
  kind: Renamable,
  access: Services["access"],
  path: Record<string, string>,
): Promise<Response> {
  if (!isKilnError(err) || err.kind !== "not_found") throw err;
  const actor = c.get("actor");
  const url = new URL(c.req.url);
  const segments = url.pathname.split("/");
  const at = segments.indexOf(kind === "repo" ? "repos" : kind === "org" ? "orgs" : "users");
  if (at < 0) throw err;
  if (kind === "repo") {
    const moved = await access.repoRedirect(actor, path.owner ?? "", path.repo ?? "");
    if (!moved || segments.length < at + 3) throw err;
    segments[at + 1] = encodeURIComponent(moved.owner);
    segments[at + 2] = encodeURIComponent(moved.name);
  } else {
    const moved = await access.accountRedirect(actor, path[kind] ?? "");
    if (!moved || segments.length < at + 2) throw err;
    segments[at + 1] = encodeURIComponent(moved);
  }
  return redirectResponse(`${segments.join("/")}${url.search}`);
}

/** A 307 to `location` (the method and body are kept, as Forgejo's redirects). */
export function redirectResponse(location: string): Response {
  return new Response(null, { status: 307, headers: { Location: location } });
}

/** Forgejo's mustNotBeArchived answer: 423 `<Repository 5:owner/name> is archived`. */
function repoIsArchived(repo: Repository): LockedError {
  return new LockedError(`<Repository ${repo.id}:${repo.ownerName}/${repo.name}> is archived`);
}
