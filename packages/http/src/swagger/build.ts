import { api } from "@kiln/domain";
import { toJsonSchemaDefs } from "@valibot/to-json-schema";
import type { ObjectEntries, ObjectSchema } from "valibot";
import { type AnyRoute, swaggerPath } from "../route.js";
import { describeValue, isOptional, namedSchemas, toSwagger2, toSwaggerSchema } from "./json-schema.js";

type Json = Record<string, unknown>;

/** Forgejo's security schemes, so clients generated from either description authenticate alike. */
const SECURITY_DEFINITIONS = {
  BasicAuth: { type: "basic" },
  AuthorizationHeaderToken: {
    type: "apiKey",
    name: "Authorization",
    in: "header",
    description: 'API tokens must be prepended with "token" followed by a space.',
  },
  SudoParam: {
    type: "apiKey",
    name: "sudo",
    in: "query",
    description: "Sudo API request as the user provided as the key. Admin privileges are required.",
  },
  SudoHeader: {
    type: "apiKey",
    name: "Sudo",
    in: "header",
    description: "Sudo API request as the user provided as the key. Admin privileges are required.",
  },
  TOTPHeader: {
    type: "apiKey",
    name: "X-FORGEJO-OTP",
    in: "header",
    description: "Must be used in combination with BasicAuth if two-factor authentication is enabled.",
  },
} as const;

/**
 * The Swagger 2.0 description of the given routes, generated from their definitions and the
 * valibot schemas of `@kiln/domain`'s `api` namespace (which become `definitions`).
 */
export function buildSwagger(routes: readonly AnyRoute[], version: string): Json {
  const definitions = namedSchemas(api as unknown as Record<string, unknown>);
  const definitionJson = toJsonSchemaDefs(definitions, {
    target: "openapi-3.0",
    errorMode: "ignore",
    typeMode: "output",
  });
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const path = swaggerPath(r.path);
    const item = paths[path] ?? {};
    paths[path] = item;
    item[r.method] = operation(r, definitions);
  }
  return {
    swagger: "2.0",
    info: {
      title: "Kiln API",
      description: "This documentation describes the Kiln API, which is wire-compatible with Forgejo's.",
      license: { name: "MIT", url: "http://opensource.org/licenses/MIT" },
      version,
    },
    basePath: "/api/v1",
    schemes: ["https", "http"],
    consumes: ["application/json", "text/plain"],
    produces: ["application/json", "text/html"],
    paths,
    definitions: Object.fromEntries(Object.entries(definitionJson).map(([k, s]) => [k, toSwagger2(s)])),
    securityDefinitions: SECURITY_DEFINITIONS,
    security: Object.keys(SECURITY_DEFINITIONS).map((k) => ({ [k]: [] })),
  };
}

function operation(r: AnyRoute, definitions: Parameters<typeof toSwaggerSchema>[1]): Json {
  const parameters: Json[] = [];
  for (const [name, schema] of entries(r.params)) {
    parameters.push({ name, in: "path", required: true, ...describeValue(schema) });
  }
  for (const [name, schema] of entries(r.query)) {
    parameters.push({
      name,
      in: "query",
      ...(isOptional(schema) ? {} : { required: true }),
      ...describeValue(schema),
    });
  }
  if (r.body) {
    parameters.push({
      name: "body",
      in: "body",
      ...(r.bodyRequired === false ? {} : { required: true }),
      schema: toSwaggerSchema(r.body, definitions),
    });
  }
  for (const [name, field] of Object.entries(r.upload?.fields ?? {})) {
    parameters.push({
      name,
      in: "formData",
      type: field.type,
      description: field.description,
      ...(field.required ? { required: true } : {}),
    });
  }
  const responses: Record<string, Json> = {};
  for (const [status, doc] of Object.entries(r.responses)) {
    const schema =
      doc.schema === undefined || doc.schema === "empty"
        ? undefined
        : doc.schema === "text"
          ? { type: "string" }
          : doc.schema === "file"
            ? { type: "file" }
            : toSwaggerSchema(doc.schema, definitions);
    responses[status] = { description: doc.description, ...(schema ? { schema } : {}) };
  }
  return {
    tags: [...r.tags],
    summary: r.summary,
    ...(r.extension ? { description: `Kiln extension: ${r.extension}` } : {}),
    operationId: r.operationId,
    ...(r.body ? { consumes: ["application/json"] } : {}),
    ...(r.upload ? { consumes: [...r.upload.consumes] } : {}),
    produces: Object.values(r.responses).some((doc) => doc.schema === "file")
      ? ["application/octet-stream"]
      : ["application/json"],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: entries of any object schema
function entries(schema: ObjectSchema<ObjectEntries, any> | undefined): [string, ObjectEntries[string]][] {
  return schema ? Object.entries(schema.entries) : [];
}
