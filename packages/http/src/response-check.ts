import * as v from "valibot";
import type { AnyRoute } from "./route.js";

/** A valibot schema node as the walk reads it (the fields each kind of schema carries). */
interface SchemaNode {
  readonly type: string;
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly wrapped?: SchemaNode;
  readonly item?: SchemaNode;
  readonly items?: readonly SchemaNode[];
  readonly value?: SchemaNode;
  readonly options?: readonly SchemaNode[];
  readonly getter?: (input: unknown) => SchemaNode;
}

/** At most this many unknown keys are named in one failure. */
const MAX_REPORTED = 5;

/**
 * Test mode's check of a JSON response against the schema documented for its status: it must
 * parse, and it may carry no key the schema does not describe. Valibot's `object` drops unknown
 * keys silently, so without the second walk a field Forgejo's description lacks (or a misspelt
 * one) would pass unnoticed. `looseObject` and `record` schemas allow any key.
 */
export async function checkResponse(r: AnyRoute, response: Response): Promise<void> {
  const doc = r.responses[response.status];
  if (!doc) throw new Error(`${r.operationId} answered ${response.status}, which it does not document`);
  const schema = doc.validate ?? doc.schema;
  if (typeof schema !== "object") return;
  const body: unknown = await response.clone().json();
  const result = v.safeParse(schema, body);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue?.path?.map((p) => String(p.key)).join(".") ?? "";
    throw new Error(
      `${r.operationId} ${response.status} response does not match its schema at "${where}": ${issue?.message}`,
    );
  }
  const unknown = unknownKeys(schema as unknown as SchemaNode, body, "");
  if (unknown.length > 0) {
    throw new Error(
      `${r.operationId} ${response.status} response has keys its schema does not describe: ${unknown
        .slice(0, MAX_REPORTED)
        .join(", ")}`,
    );
  }
}

/** The paths of keys in `value` that `schema` does not describe (`value` already parses). */
export function unknownKeys(schema: SchemaNode, value: unknown, at: string): string[] {
  switch (schema.type) {
    case "object":
    case "strict_object":
    case "loose_object":
    case "object_with_rest": {
      if (!isRecord(value)) return [];
      const entries = schema.entries ?? {};
      const found: string[] = [];
      for (const [key, child] of Object.entries(value)) {
        const entry = entries[key];
        if (entry) found.push(...unknownKeys(entry, child, join(at, key)));
        else if (schema.type === "object" || schema.type === "strict_object") found.push(join(at, key));
      }
      return found;
    }
    case "record":
      return isRecord(value) && schema.value
        ? Object.entries(value).flatMap(([key, child]) =>
            unknownKeys(schema.value as SchemaNode, child, join(at, key)),
          )
        : [];
    case "array":
      return Array.isArray(value) && schema.item
        ? value.flatMap((child, i) => unknownKeys(schema.item as SchemaNode, child, join(at, String(i))))
        : [];
    case "tuple":
      return Array.isArray(value)
        ? (schema.items ?? []).flatMap((item, i) => unknownKeys(item, value[i], join(at, String(i))))
        : [];
    case "optional":
    case "exact_optional":
    case "nullable":
    case "nullish":
    case "undefinedable":
    case "non_nullable":
    case "non_optional":
    case "non_nullish":
      return value === undefined || value === null || !schema.wrapped
        ? []
        : unknownKeys(schema.wrapped, value, at);
    case "lazy":
      return schema.getter ? unknownKeys(schema.getter(value), value, at) : [];
    case "union":
    case "variant": {
      // The option that describes the value best: among those it parses with, the fewest unknown keys.
      let best: string[] | undefined;
      for (const option of schema.options ?? []) {
        if (!v.is(option as unknown as v.GenericSchema, value)) continue;
        const found = unknownKeys(option, value, at);
        if (!best || found.length < best.length) best = found;
        if (best.length === 0) break;
      }
      return best ?? [];
    }
    case "intersect": {
      // A key is unknown only when no part of the intersection describes it.
      const parts = (schema.options ?? []).map((option) => new Set(unknownKeys(option, value, at)));
      const [first, ...rest] = parts;
      return first ? [...first].filter((key) => rest.every((part) => part.has(key))) : [];
    }
    default:
      return [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}
