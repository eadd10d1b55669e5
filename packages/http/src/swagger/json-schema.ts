import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";

// biome-ignore lint/suspicious/noExplicitAny: schemas of any shape
type AnySchema = v.GenericSchema<any, any>;
type Json = Record<string, unknown>;

/**
 * Converts a valibot schema to a Swagger 2.0 schema object. Named schemas (`definitions`) become
 * `$ref: #/definitions/<Name>`; OpenAPI 3.0's `nullable` becomes Swagger's `x-nullable`; integer
 * formats declared with `v.metadata({format})` are kept.
 */
export function toSwaggerSchema(schema: AnySchema, definitions: Readonly<Record<string, AnySchema>>): Json {
  const json = toJsonSchema(schema, {
    target: "openapi-3.0",
    errorMode: "ignore",
    typeMode: "output",
    definitions: definitions as Record<string, AnySchema>,
    overrideAction: ({ valibotAction, jsonSchema }) => {
      if (valibotAction.kind === "metadata" && valibotAction.type === "metadata") {
        const meta = (valibotAction as unknown as { metadata: Json }).metadata;
        if (typeof meta.format === "string") return { ...jsonSchema, format: meta.format };
      }
      return undefined;
    },
  }) as Json;
  delete json.$schema;
  delete json.$defs;
  return toSwagger2(json);
}

/** Rewrites what Swagger 2.0 lacks, recursively. */
export function toSwagger2(node: unknown): Json {
  if (Array.isArray(node)) return node.map((n) => toSwagger2(n)) as unknown as Json;
  if (typeof node !== "object" || node === null) return node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") out.$ref = value.replace("#/$defs/", "#/definitions/");
    else if (key === "nullable") out["x-nullable"] = value;
    else if (key === "const") out.enum = [value];
    else if (key === "$schema" || key === "$defs") continue;
    else out[key] = typeof value === "object" ? toSwagger2(value) : value;
  }
  return out;
}

/** The swagger type, format and description of a query or path value schema. */
export function describeValue(schema: AnySchema): {
  type: string;
  format?: string;
  enum?: readonly string[];
  description?: string;
} {
  const inner = unwrapOptional(schema);
  const meta = metadataOf(inner);
  const swagger = meta?.swagger as { type: string; format?: string; enum?: readonly string[] } | undefined;
  const description = typeof meta?.description === "string" ? meta.description : undefined;
  if (swagger) return { ...swagger, ...(description ? { description } : {}) };
  const json = toJsonSchema(inner, { errorMode: "ignore" }) as Json;
  return {
    type: typeof json.type === "string" ? json.type : "string",
    ...(description ? { description } : {}),
  };
}

/** Whether an object entry may be absent. */
export function isOptional(schema: AnySchema): boolean {
  return schema.type === "optional" || schema.type === "nullish" || schema.type === "exact_optional";
}

function unwrapOptional(schema: AnySchema): AnySchema {
  return isOptional(schema) ? (schema as unknown as { wrapped: AnySchema }).wrapped : schema;
}

function metadataOf(schema: AnySchema): Json | undefined {
  const pipe = (schema as unknown as { pipe?: readonly { kind: string; type: string; metadata?: Json }[] })
    .pipe;
  return pipe?.find((a) => a.kind === "metadata" && a.type === "metadata")?.metadata;
}

/** The named API schemas from a module namespace: every export that is a valibot schema. */
export function namedSchemas(namespace: Readonly<Record<string, unknown>>): Record<string, AnySchema> {
  const out: Record<string, AnySchema> = {};
  for (const [name, value] of Object.entries(namespace)) {
    if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema") {
      out[name] = value as AnySchema;
    }
  }
  return out;
}

export { v };
