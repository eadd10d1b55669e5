import type { Settings } from "@kiln/domain";
import { BadRequestError, InvalidArgumentError, NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { readBoundedText } from "./bounded-body.js";
import type { AppContext } from "./env.js";
import { requestTarget } from "./request-header.js";
import { type AnyRoute, splitJoinedParams } from "./route.js";

/**
 * Parses a request's path parameters and query with the route's valibot schemas ({@link parseBody}
 * reads the JSON body).
 * A path value that does not fit is 404 (no such resource); a query or body that does not fit
 * is 422 with Forgejo's `[Field]: reason` message; a body that is not JSON at all is 400, and
 * one larger than the route's limit (`bodyLimit`, else `[api] MAX_BODY_SIZE`) is 413.
 * An empty or `null` body counts as `{}`, as Forgejo's binding treats it. NUL bytes, which no
 * name, path or text stored in PostgreSQL can hold, are refused everywhere: 404 in the path,
 * 422 naming the field in the query or body.
 */
export function parsePathAndQuery(
  route: AnyRoute,
  c: AppContext,
  rawParams: Record<string, string>,
): { params: unknown; query: unknown } {
  const params = route.params ? v.safeParse(route.params, splitJoinedParams(rawParams)) : undefined;
  if (params && !params.success) throw new NotFoundError();
  // A NUL byte can only arrive percent-encoded; most requests have none and skip the walk.
  const mayHoldNul = requestTarget(c).includes("%00");
  const rawQuery = route.query || mayHoldNul ? c.req.queries() : {};
  if (mayHoldNul) {
    for (const [key, values] of Object.entries(rawQuery)) {
      if (hasNul(key) || values.some(hasNul)) throw new InvalidArgumentError(nulMessage([key]));
    }
  }
  const query = route.query ? v.safeParse(route.query, flattenQuery(rawQuery)) : undefined;
  if (query && !query.success) throw new InvalidArgumentError(describeIssue(query.issues[0]));
  return { params: params?.output ?? {}, query: query?.output ?? {} };
}

/** The largest body the route reads under these settings: its own limit, else `[api] MAX_BODY_SIZE`. */
export function routeBodyLimit(route: AnyRoute, settings: Settings): number {
  const limit = route.bodyLimit;
  if (limit === undefined) return settings.api.maxBodySize;
  return typeof limit === "number" ? limit : limit(settings);
}

/** The route's JSON body, read within its limit and checked against its schema. */
export async function parseBody(route: AnyRoute, c: AppContext): Promise<unknown> {
  if (!route.body) return undefined;
  const json = await readJson(c, routeBodyLimit(route, c.get("settings")));
  const nulAt = findNul(json);
  if (nulAt) throw new InvalidArgumentError(nulMessage(nulAt));
  const parsed = v.safeParse(route.body, foldKeys(route.body, json));
  if (!parsed.success) throw new InvalidArgumentError(describeIssue(parsed.issues[0]));
  return parsed.output;
}

/**
 * Go's JSON decoder, which Forgejo uses, matches an object's keys to fields in any case (`do` fills
 * `Do`): a top-level key that is not a field of the body's object schema but equals one in
 * another case is renamed to it, unless the exact name is also present.
 */
function foldKeys(schema: unknown, json: unknown): unknown {
  const entries = (schema as { entries?: Record<string, unknown> }).entries;
  if (!entries || typeof json !== "object" || json === null || Array.isArray(json)) return json;
  let folded: Record<string, unknown> | undefined;
  for (const key of Object.keys(json)) {
    if (key in entries) continue;
    const lower = key.toLowerCase();
    const field = Object.keys(entries).find((name) => name.toLowerCase() === lower);
    if (field === undefined || field in json) continue;
    folded ??= { ...(json as Record<string, unknown>) };
    folded[field] = folded[key];
    delete folded[key];
  }
  return folded ?? json;
}

/**
 * Refuses (404) a request whose path parameters hold a NUL byte, and returns the parameters.
 * {@link parsePathAndQuery} does this too; call it first wherever a path value is used before then
 * (e.g. to load the repository a route acts on).
 */
export function checkPathParams(c: AppContext): Record<string, string> {
  const params = c.req.param() as Record<string, string>;
  if (requestTarget(c).includes("%00") && Object.values(params).some(hasNul)) throw new NotFoundError();
  return params;
}

/** The request's JSON body, read with a size cap; empty or `null` is `{}`. */
async function readJson(c: AppContext, limit: number): Promise<unknown> {
  const text = await readBoundedText(c.req.raw, limit);
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value === null ? {} : value;
  } catch (err) {
    throw new BadRequestError(`invalid JSON body: ${(err as Error).message}`);
  }
}

function hasNul(s: string): boolean {
  return s.includes("\u0000");
}

interface Visit {
  readonly value: unknown;
  readonly key?: string | number;
  readonly parent?: Visit;
}

/**
 * The path (keys and indexes) of the first string or key holding a NUL byte in a JSON value, or
 * undefined. Walks iteratively and builds a path only for a hit, so deeply nested input costs
 * linear time and cannot overflow the stack.
 */
function findNul(value: unknown): (string | number)[] | undefined {
  const stack: Visit[] = [{ value }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const current = visit.value;
    if (typeof current === "string") {
      if (hasNul(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], key: index, parent: visit });
    } else if (typeof current === "object" && current !== null) {
      for (const [key, element] of Object.entries(current)) {
        if (hasNul(key)) return [...pathOf(visit), key];
        stack.push({ value: element, key, parent: visit });
      }
    }
  }
  return undefined;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

function nulMessage(path: readonly (string | number)[]): string {
  return `${fieldName(path)}: must not contain NUL bytes`;
}

function flattenQuery(queries: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, values] of Object.entries(queries))
    out[k] = values.length === 1 ? (values[0] ?? "") : values;
  return out;
}

/** `[Name]: Required` for a missing field, `[Name]: <valibot's reason>` otherwise (Forgejo's shape). */
export function describeIssue(issue: v.BaseIssue<unknown> | undefined): string {
  if (!issue) return "invalid input";
  const field = fieldName((issue.path ?? []).map((p) => p.key as string | number));
  const reason = issue.kind === "schema" && issue.received === "undefined" ? "Required" : issue.message;
  return `${field}: ${reason}`;
}

/** `[Name.0.Field]` for a path of JSON keys and indexes, `[Body]` for the body itself. */
function fieldName(path: readonly (string | number)[]): string {
  const parts = path.map((key) => (typeof key === "number" ? String(key) : goFieldName(String(key))));
  return parts.length > 0 ? `[${parts.join(".")}]` : "[Body]";
}

/** `must_change_password` → `MustChangePassword`: the Go field name Forgejo's messages show. */
function goFieldName(jsonName: string): string {
  return jsonName
    .split("_")
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join("");
}
