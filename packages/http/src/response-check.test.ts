import { api } from "@kiln/domain";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { checkResponse, unknownKeys } from "./response-check.js";
import type { AnyRoute } from "./route.js";

type Node = Parameters<typeof unknownKeys>[0];
const walk = (schema: unknown, value: unknown) => unknownKeys(schema as Node, value, "");

describe("the test-mode response check", () => {
  it("names keys an object schema does not describe, however deep", () => {
    const schema = v.object({
      id: v.number(),
      items: v.array(
        v.object({ sha: v.string(), meta: v.optional(v.nullable(v.object({ a: v.string() }))) }),
      ),
    });
    expect(walk(schema, { id: 1, items: [{ sha: "x" }] })).toEqual([]);
    expect(
      walk(schema, {
        id: 1,
        extra: true,
        items: [
          { sha: "x", meta: { a: "y", b: 2 } },
          { sha: "z", c: 1 },
        ],
      }),
    ).toEqual(["extra", "items.0.meta.b", "items.1.c"]);
  });

  it("lets loose objects and records hold any key, and judges a union by its best option", () => {
    expect(walk(v.looseObject({ a: v.string() }), { a: "x", b: 1 })).toEqual([]);
    expect(walk(v.record(v.string(), v.object({ n: v.number() })), { k: { n: 1, m: 2 } })).toEqual(["k.m"]);
    const union = v.union([v.object({ a: v.string() }), v.object({ a: v.string(), b: v.number() })]);
    expect(walk(union, { a: "x", b: 1 })).toEqual([]);
    expect(walk(union, { a: "x", b: 1, c: 2 })).toEqual(["c"]);
  });

  it("fails a response carrying a field Forgejo's shape lacks, and one missing a field it always sends", async () => {
    const route = {
      operationId: "userGetTokens",
      responses: { 200: { description: "AccessTokenList", schema: v.array(api.AccessToken) } },
    } as unknown as AnyRoute;
    const token = { id: 1, name: "t", sha1: "", token_last_eight: "12345678", scopes: [] };
    await expect(checkResponse(route, Response.json([token]))).resolves.toBeUndefined();
    await expect(checkResponse(route, Response.json([{ ...token, secret: "x" }]))).rejects.toThrow(
      "userGetTokens 200 response has keys its schema does not describe: 0.secret",
    );
    const { sha1: _, ...withoutSha1 } = token;
    await expect(checkResponse(route, Response.json([withoutSha1]))).rejects.toThrow(/at "0.sha1"/);
  });
});
