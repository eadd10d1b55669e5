import * as v from "valibot";

// biome-ignore lint/suspicious/noExplicitAny: walks valibot schemas of any shape
type Schema = any;

/**
 * Values for named fields, consulted before the generic generator: the caller points owner-like
 * fields at a target, or gives a field a value that means something to the server (a branch, a
 * blob sha). Returning `undefined` falls back to the generic value.
 */
export type FieldHints = (key: string, required: boolean) => unknown;

const OPTIONAL = new Set(["optional", "exact_optional", "nullish", "undefinedable"]);
const ISO = "2024-01-02T03:04:05Z";

let counter = 0;
/**
 * A fresh name-like string, valid for teams, repositories, branches and tags. A counter, not
 * randomness, so the fuzzer's requests are the same on every run.
 */
export function freshName(prefix = "kz"): string {
  counter += 1;
  return `${prefix}-${counter.toString(36).padStart(4, "0")}`;
}

/**
 * A minimal value the schema accepts: required object entries only (plus hinted ones), shortest
 * arrays, first picklist options. The result is checked with `safeParse`; `ok: false` carries
 * valibot's first issue so a generator gap is reported instead of masking an access decision.
 */
export function sampleValid(
  schema: Schema,
  hints: FieldHints = () => undefined,
): { ok: true; value: unknown } | { ok: false; issue: string } {
  const value = sample(schema, hints, undefined);
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, value };
  const issue = result.issues[0];
  const where = issue?.path?.map((p: { key: unknown }) => String(p.key)).join(".") ?? "";
  return { ok: false, issue: `${where}: ${issue?.message}` };
}

function sample(schema: Schema, hints: FieldHints, key: string | undefined): unknown {
  switch (schema.type as string) {
    case "object":
    case "loose_object":
    case "strict_object":
    case "object_with_rest": {
      const out: Record<string, unknown> = {};
      for (const [k, entry] of Object.entries(schema.entries as Record<string, Schema>)) {
        const hinted = hints(k, !OPTIONAL.has(entry.type));
        if (hinted !== undefined) out[k] = hinted;
        else if (!OPTIONAL.has(entry.type)) out[k] = sample(entry, hints, k);
      }
      return out;
    }
    case "optional":
    case "exact_optional":
    case "nullish":
    case "undefinedable":
    case "nullable":
    case "non_optional":
    case "non_nullable":
    case "non_nullish":
      return sample(schema.wrapped, hints, key);
    case "array": {
      const min = requirement(schema, ["min_length", "length", "non_empty"]) ?? 0;
      return Array.from({ length: Math.max(min, 0) }, () => sample(schema.item, hints, undefined));
    }
    case "tuple":
    case "loose_tuple":
    case "strict_tuple":
      return (schema.items as Schema[]).map((item) => sample(item, hints, undefined));
    case "picklist":
    case "enum":
      return schema.options[0];
    case "literal":
      return schema.literal;
    case "boolean":
      return false;
    case "number":
    case "bigint": {
      const min = requirement(schema, ["min_value", "gt_value"]);
      return min !== undefined ? Number(min) + (hasAction(schema, "gt_value") ? 1 : 0) : 1;
    }
    case "string":
      return sampleString(schema, key);
    case "null":
      return null;
    case "record":
    case "map":
      return {};
    case "union":
    case "variant": {
      for (const option of schema.options as Schema[]) {
        const candidate = sample(option, hints, key);
        if (v.safeParse(option, candidate).success) return candidate;
      }
      return sample(schema.options[0], hints, key);
    }
    case "lazy":
      return sample(schema.getter(undefined), hints, key);
    default:
      return {};
  }
}

function actions(schema: Schema): Schema[] {
  return Array.isArray(schema.pipe) ? schema.pipe.slice(1) : [];
}
function hasAction(schema: Schema, type: string): boolean {
  return actions(schema).some((a) => a.type === type);
}
function requirement(schema: Schema, types: string[]): number | undefined {
  const action = actions(schema).find((a) => types.includes(a.type));
  if (!action) return undefined;
  return action.type === "non_empty" ? 1 : Number(action.requirement);
}

/** A string for a field: a format the pipe asks for, else a fresh name, fitted to its lengths. */
function sampleString(schema: Schema, key: string | undefined): string {
  const candidates: string[] = [];
  if (hasAction(schema, "email")) candidates.push(`${freshName("m")}@example.com`);
  if (hasAction(schema, "iso_timestamp") || hasAction(schema, "iso_date_time")) candidates.push(ISO);
  if (hasAction(schema, "url")) candidates.push("https://example.invalid/x.git");
  if (key === "content") candidates.push(Buffer.from("hostile\n").toString("base64"));
  candidates.push(freshName(), "1", "main", "a", ISO, "https://example.invalid/x.git", "x@example.com");
  const min = requirement(schema, ["min_length", "length"]) ?? 0;
  const max = requirement(schema, ["max_length", "length"]);
  for (const raw of candidates) {
    let s = raw.length < min ? raw.padEnd(min, "x") : raw;
    if (max !== undefined) s = s.slice(0, max);
    if (v.safeParse(schema, s).success) return s;
  }
  return candidates[0] ?? "";
}
