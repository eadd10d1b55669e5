import type { ScopeCategory, Settings } from "@kiln/domain";
import type { SubjectSpelling } from "@kiln/quota";
import type { OrgAccess, OrgNeed, Principal, QuotaOwner, RepoAccess, RepoNeed } from "@kiln/service";
import type * as v from "valibot";
import type { AppContext } from "./env.js";

// biome-ignore lint/suspicious/noExplicitAny: schemas of any shape are accepted and inferred below
type AnySchema = v.GenericSchema<any, any>;
type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** Who may call a route, checked before its input is parsed (Forgejo's reqToken & co.). */
export type Access =
  /** Anyone, signed in or not. */
  | "public"
  /** A signed-in caller (401 `token is required` otherwise). */
  | "signed-in"
  /** A signed-in site admin (403 `user should be the site admin` otherwise). */
  | "site-admin"
  /** Basic auth with the account password (Forgejo's reqBasicOrRevProxyAuth). */
  | "password";

/** A documented response of a route. */
export interface ResponseDoc {
  readonly description: string;
  /** A valibot schema of the JSON body, or "empty" (no body), "text" (a plain string) or "file" (raw bytes). */
  readonly schema?: AnySchema | "empty" | "text" | "file";
  /**
   * What the body is checked against in test mode when Forgejo's description is narrower than its
   * behaviour (e.g. `/git/refs/{ref}` documents a list but answers one exact match as an object).
   */
  readonly validate?: AnySchema;
}

/** Everything about one API operation: routing, access, input schemas, docs and the handler. */
export interface RouteDef<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends AnySchema | undefined,
  R extends RepoNeed | undefined = undefined,
  O extends OrgNeed | undefined = undefined,
> {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Path under /api/v1 in the API description's syntax, e.g. `/users/{username}/tokens`. */
  readonly path: string;
  /** Forgejo's operationId for the same method and path (Kiln's own for an extension). */
  readonly operationId: string;
  /**
   * Set on operations Forgejo's description lacks but the specification requires (docs/decisions.md),
   * saying why; they are documented and listed as Kiln extensions.
   */
  readonly extension?: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly access: Access;
  /**
   * A repository route (`{owner}/{repo}` in the path): the access module resolves the repository
   * for the caller before the body is read, answering 404 when the caller may not see it and 403
   * when it lacks this need (Forgejo's repoAssignment + reqRepoReader/reqRepoWriter/reqAdmin/
   * reqOwner). The handler receives it as `input.repo`.
   */
  readonly repo?: R;
  /**
   * An organization route (`{org}` in the path): the access module resolves the organization for
   * the caller before the body is read (404 when hidden; 403 `Must be an organization member` /
   * `owner` for `member` / `owner`, Forgejo's reqOrgMembership / reqOrgOwnership). The handler
   * receives it as `input.org`.
   */
  readonly org?: O;
  /**
   * A write every reader of the repository may make (opening an issue, commenting, reacting,
   * subscribing), as Forgejo allows: the route-table property test then expects it to be refused
   * only where the caller may not see the repository.
   */
  readonly readersMayWrite?: true;
  /**
   * Forgejo's mustNotBeArchived: the change is refused with 423 (`<Repository 5:owner/name> is
   * archived`) when the route's repository is archived, checked once the repository is resolved for
   * the caller (so 404 and 403 come first) and before the body is read. The route documents 423.
   */
  readonly notArchived?: true;
  /** Token scope categories of the route group (all required; level from the method). */
  readonly scopes?: readonly ScopeCategory[];
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** Whether the body is required (default: true for a body schema). */
  readonly bodyRequired?: boolean;
  /**
   * The largest body this route reads, in bytes (default `[api] MAX_BODY_SIZE`), or how to derive
   * it from the settings; more is 413.
   */
  readonly bodyLimit?: number | ((settings: Settings) => number);
  /**
   * A route that takes a file: it declares no `body` (the pipeline reads none) and streams the
   * upload itself with `readUpload` (upload.ts). This documents it as Forgejo does: the content
   * types it takes and its form fields (`file` parts and text fields).
   */
  readonly upload?: UploadDoc;
  readonly responses: Readonly<Record<number, ResponseDoc>>;
  /** Registered only when this returns true (e.g. quota routes with `[quota] ENABLED`). */
  readonly enabled?: (settings: Settings) => boolean;
  /**
   * Forgejo's EnforceQuotaAPI: the route stores bytes counted under `subject`, so the quota
   * enforcement hook runs after access checks and validation, before the handler.
   */
  readonly quota?: RouteQuota<P, Q, B, R, O>;
  readonly handler: (c: AppContext, input: RouteInput<P, Q, B, R, O>) => Promise<Response> | Response;
}

/** How an upload route is described: its content types and form fields. */
export interface UploadDoc {
  readonly consumes: readonly string[];
  readonly fields: Readonly<
    Record<
      string,
      { readonly type: "file" | "string"; readonly description: string; readonly required?: boolean }
    >
  >;
}

/** What a handler receives: the validated path, query and body, and the caller. */
export interface RouteInput<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends AnySchema | undefined,
  R extends RepoNeed | undefined = undefined,
  O extends OrgNeed | undefined = undefined,
> {
  readonly params: P extends ObjectSchema ? v.InferOutput<P> : Record<string, never>;
  readonly query: Q extends ObjectSchema ? v.InferOutput<Q> : Record<string, never>;
  readonly body: B extends AnySchema ? v.InferOutput<B> : undefined;
  readonly principal: Principal | null;
  /** The repository of a repository route, as the access module resolved it for the caller. */
  readonly repo: R extends RepoNeed ? RepoAccess : undefined;
  /** The organization of an organization route, as the access module resolved it for the caller. */
  readonly org: O extends OrgNeed ? OrgAccess : undefined;
}

/** Where and for whom a route's write is quota-checked (decision 6, docs/decisions.md). */
export interface RouteQuota<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends AnySchema | undefined,
  R extends RepoNeed | undefined = undefined,
  O extends OrgNeed | undefined = undefined,
> {
  /** The subject Forgejo enforces on this route, e.g. `size:repos:all`. */
  readonly subject: SubjectSpelling;
  /**
   * The owner the write counts against. Default: the signed-in caller (Forgejo's
   * QuotaTargetUser); repository routes give the repository's owner, organization routes the
   * organization.
   */
  readonly owner?: (c: AppContext, input: RouteInput<P, Q, B, R, O>) => Promise<QuotaOwner> | QuotaOwner;
}

/** A route definition of any input types, as the registry stores it. */
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous collection of typed definitions
export type AnyRoute = RouteDef<any, any, any, any, any>;

/** Declares a route; the identity function that gives handlers their inferred input types. */
export function route<
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
  const R extends RepoNeed | undefined = undefined,
  const O extends OrgNeed | undefined = undefined,
>(def: RouteDef<P, Q, B, R, O>): RouteDef<P, Q, B, R, O> {
  return def;
}

/**
 * The same path in Hono's syntax: `{name}` → `:name`, and `{name*}` (rest of path) → `:name{.+}`.
 * An issue's `{index}` is digits only (`:index{[0-9]+}`): then `/issues/{index}/comments` and
 * `/issues/comments/{id}` cannot both match one path, which Hono's one-expression router needs
 * (a non-numeric index is 404 either way, as in Forgejo). Two parameters in one segment
 * (`{index}.{diffType}`) become one Hono parameter named `index__diffType` (a `diffType` only
 * `diff` or `patch`, as Forgejo's router matches it), split again at the
 * last dot before validation ({@link splitJoinedParams}).
 */
export function honoPath(path: string): string {
  return (
    path
      // Forgejo routes `{sha}.{diffType:diff|patch}`: other suffixes fall through to the route without one.
      .replace(/\{(\w+)\}\.\{diffType\}/g, ":$1__diffType{[^/]+\\.(?:diff|patch)}")
      .replace(/\{(\w+)\}\.\{(\w+)\}/g, ":$1__$2{[^/]+\\.[^/.]+}")
      .replace(/\{(\w+)\*\}/g, ":$1{.+}")
      .replace(/\{index\}/g, ":index{[0-9]+}")
      .replace(/\{([\w-]+)\}/g, ":$1")
  );
}

/** Hono's parameters with each joined pair (`a__b` = `x.y`, from {@link honoPath}) split into `a` and `b`. */
export function splitJoinedParams(raw: Record<string, string>): Record<string, string> {
  let result = raw;
  for (const [key, value] of Object.entries(raw)) {
    const joint = key.indexOf("__");
    if (joint < 0) continue;
    const dot = value.lastIndexOf(".");
    result = {
      ...result,
      [key.slice(0, joint)]: value.slice(0, dot),
      [key.slice(joint + 2)]: value.slice(dot + 1),
    };
  }
  return result;
}

/** The path as the API description spells it: a rest-of-path `{name*}` is Forgejo's `{name}`. */
export function swaggerPath(path: string): string {
  return path.replace(/\{(\w+)\*\}/g, "{$1}");
}
