import { BadRequestError, InvalidArgumentError, NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import type { AppContext } from "./env.js";
import type { AnyRoute } from "./route.js";

/**
 * Parses a request's path parameters, query and JSON body with the route's valibot schemas.
 * A path value that does not fit is 404 (no such resource); a query or body that does not fit
 * is 422 with Forgejo's `[Field]: reason` message; a body that is not JSON at all is 400.
 * An empty or `null` body counts as `{}`, as Forgejo's binding treats it.
 */
export async function parseInput(route: AnyRoute, c: AppContext) {
  const params = route.params ? v.safeParse(route.params, c.req.param()) : undefined;
  if (params && !params.success) throw new NotFoundError();
  const query = route.query ? v.safeParse(route.query, flattenQuery(c.req.queries())) : undefined;
  if (query && !query.success) throw new InvalidArgumentError(describeIssue(query.issues[0]));
  let body: unknown;
  if (route.body) {
    const parsed = v.safeParse(route.body, await readJson(c));
    if (!parsed.success) throw new InvalidArgumentError(describeIssue(parsed.issues[0]));
    body = parsed.output;
  }
  return { params: params?.output ?? {}, query: query?.output ?? {}, body };
}

async function readJson(c: AppContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value === null ? {} : value;
  } catch (err) {
    throw new BadRequestError(`invalid JSON body: ${(err as Error).message}`);
  }
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
  const path = (issue.path ?? []).map((p) =>
    typeof p.key === "number" ? String(p.key) : goFieldName(String(p.key)),
  );
  const field = path.length > 0 ? `[${path.join(".")}]` : "[Body]";
  const reason = issue.kind === "schema" && issue.received === "undefined" ? "Required" : issue.message;
  return `${field}: ${reason}`;
}

/** `must_change_password` → `MustChangePassword`: the Go field name Forgejo's messages show. */
function goFieldName(jsonName: string): string {
  return jsonName
    .split("_")
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join("");
}
