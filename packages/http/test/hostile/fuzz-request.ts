import type { AnyRoute } from "../../src/route.js";
import { type Fixture, validValue } from "./fuzz-fixture.js";
import {
  deeplyNested,
  HOSTILE_QUERY,
  HOSTILE_REST,
  HOSTILE_SEGMENTS,
  HOSTILE_STRINGS,
  mapStrings,
  type Rng,
  WRONG_TYPES,
} from "./fuzz-inputs.js";
import { excerpt } from "./leaks.js";
import type { RawRequest } from "./raw-caller.js";
import { sampleValid } from "./sample-value.js";
import { fillPath, pathParams } from "./targets.js";

/** One fuzzed request of a route: which parts are hostile is drawn from the PRNG. */
export function fuzzRequest(
  route: AnyRoute,
  f: Fixture,
  rng: Rng,
): { path: string; init: Omit<RawRequest, "method" | "path" | "credential">; input: string } {
  const params = pathParams(route.path);
  const parts = new Set<string>();
  // DELETE always gets a hostile path parameter, so the fuzzer does not delete its own fixture.
  const forcePath = route.method === "delete" && params.length > 0;
  const target = forcePath ? "path" : rng.pick(["path", "query", "body", "mixed"]);
  const values: Record<string, string> = {};
  const hostileParam = forcePath || target === "path" ? rng.pick(params.length ? params : [""]) : "";
  for (const p of params) {
    const rest = route.path.includes(`{${p}*}`);
    const hostile = p === hostileParam || (target === "mixed" && rng.chance(0.4));
    values[p] = hostile
      ? rng.pick(rest ? HOSTILE_REST : HOSTILE_SEGMENTS)
      : encodeValid(validValue(route, p, f), rest);
    if (hostile) parts.add(`${p}=${excerpt(values[p] ?? "", 40)}`);
  }
  let path = fillRaw(route.path, values);

  const query = new URLSearchParams();
  const sampledQuery = route.query ? sampleValid(route.query) : undefined;
  if (sampledQuery?.ok)
    for (const [k, v] of Object.entries(sampledQuery.value as object)) query.set(k, String(v));
  if (target === "query" || target === "mixed") {
    const keys = [...Object.keys(route.query?.entries ?? {}), "page", "limit", "id", "uid"];
    const n = 1 + rng.int(3);
    for (let i = 0; i < n; i++) {
      const k = rng.pick(keys);
      if (rng.chance(0.2)) {
        query.append(k, rng.pick(HOSTILE_QUERY));
        query.append(k, rng.pick(HOSTILE_QUERY)); // an array where a scalar belongs
      } else query.set(k, rng.pick(HOSTILE_QUERY));
    }
    if (rng.chance(0.05)) query.set("sudo", rng.pick(HOSTILE_QUERY));
    parts.add(`query ${excerpt(query.toString(), 80)}`);
  }
  const qs = query.toString();
  if (qs) path += `?${qs}`;

  const init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {};
  if (route.body && (target === "body" || target === "mixed" || target === "path" || target === "query")) {
    const hostileBody = target === "body" || target === "mixed";
    const sampled = sampleValid(route.body);
    const valid = sampled.ok ? sampled.value : {};
    if (!hostileBody) init.body = valid;
    else {
      const kind = rng.pick([
        "wrong-types",
        "wrong-types",
        "strings",
        "strings",
        "null",
        "scalar",
        "nested-object",
        "nested-array",
        "not-json",
        "content-type",
      ]);
      const entries = Object.keys(route.body.entries ?? route.body.wrapped?.entries ?? {});
      switch (kind) {
        case "wrong-types": {
          const out: Record<string, unknown> = { ...(valid as object) };
          const keys = entries.length ? entries : ["x"];
          out[rng.pick(keys)] = rng.pick(WRONG_TYPES);
          for (const k of keys) if (rng.chance(0.3)) out[k] = rng.pick(WRONG_TYPES);
          init.body = out;
          break;
        }
        case "strings": {
          const out: Record<string, unknown> = mapStrings(valid, () => rng.pick(HOSTILE_STRINGS)) as Record<
            string,
            unknown
          >;
          for (const k of entries) if (rng.chance(0.3)) out[k] = rng.pick(HOSTILE_STRINGS);
          init.body = out;
          break;
        }
        case "null":
          init.rawBody = "null";
          break;
        case "scalar":
          init.rawBody = rng.pick(["42", '"s"', "true", "[]", "[[[]]]", "-1", "1e999"]);
          break;
        case "nested-object":
          init.rawBody = deeplyNested(rng.pick([100, 5_000, 50_000]), "object");
          break;
        case "nested-array":
          init.rawBody = deeplyNested(rng.pick([100, 5_000, 50_000]), "array");
          break;
        case "not-json":
          init.rawBody = rng.pick([
            "not json",
            "{",
            '{"a":',
            "\u0000",
            "<xml/>",
            "\ufeff{}",
            '{"a":1}garbage',
          ]);
          break;
        case "content-type":
          init.body = valid;
          init.headers = {
            "Content-Type": rng.pick([
              "text/plain",
              "application/x-www-form-urlencoded",
              "multipart/form-data; boundary=x",
            ]),
          };
          break;
      }
      if (init.rawBody !== undefined) init.headers = { "Content-Type": "application/json" };
      parts.add(`body ${kind}`);
    }
  }
  if (init.body !== undefined) parts.add(`body ${excerpt(JSON.stringify(init.body), 120)}`);
  else if (init.rawBody !== undefined) parts.add(`raw body ${excerpt(init.rawBody, 60)}`);
  return { path, init, input: parts.size ? [...parts].join("; ") : "a valid request" };
}

function encodeValid(value: string, rest: boolean): string {
  return fillPath(rest ? "{v*}" : "{v}", { v: value });
}
function fillRaw(path: string, values: Readonly<Record<string, string>>): string {
  return path.replace(/\{([\w-]+)\*?\}/g, (_, name: string) => values[name] ?? "");
}

/** Hostile LFS batch bodies (the batch endpoint is outside the route table). */
export function lfsBodies(rng: Rng): { label: string; raw: string }[] {
  const oid = (i: number) => i.toString(16).padStart(64, "0");
  const many = (n: number) =>
    JSON.stringify({
      operation: "download",
      objects: Array.from({ length: n }, (_, i) => ({ oid: oid(i), size: 1 })),
    });
  return [
    { label: "objects null", raw: '{"operation":"download","objects":null}' },
    { label: "objects [null]", raw: '{"operation":"download","objects":[null]}' },
    { label: "objects [null, {}]", raw: '{"operation":"upload","objects":[null,{}]}' },
    { label: "null", raw: "null" },
    { label: "objects as object", raw: '{"operation":"download","objects":{"oid":"x"}}' },
    { label: "bad operation", raw: '{"operation":"delete","objects":[]}' },
    {
      label: "huge size",
      raw: `{"operation":"upload","objects":[{"oid":"${oid(1)}","size":99999999999999999999}]}`,
    },
    { label: "negative size", raw: `{"operation":"upload","objects":[{"oid":"${oid(1)}","size":-1}]}` },
    { label: "NUL oid", raw: '{"operation":"download","objects":[{"oid":"\u0000","size":1}]}' },
    {
      label: "traversal oid",
      raw: '{"operation":"download","objects":[{"oid":"../../../../etc/passwd","size":1}]}',
    },
    { label: "11,000 objects", raw: many(11_000) },
    { label: "100,000 objects", raw: many(100_000) },
    { label: "deep nesting", raw: deeplyNested(rng.pick([5_000, 50_000]), "object") },
    { label: "not JSON", raw: "{" },
  ];
}
