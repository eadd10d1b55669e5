import { appendFileSync } from "node:fs";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enabledRoutes } from "../src/app.js";
import type { AnyRoute } from "../src/route.js";
import {
  deeplyNested,
  HOSTILE_QUERY,
  HOSTILE_REST,
  HOSTILE_SEGMENTS,
  HOSTILE_STRINGS,
  mapStrings,
  prng,
  type Rng,
  WRONG_TYPES,
} from "./hostile/fuzz-inputs.js";
import { excerpt } from "./hostile/leaks.js";
import { sampleValid } from "./hostile/sample-value.js";
import { fillPath, pathParams } from "./hostile/targets.js";
import { type RawCaller, type RawRequest, rawCaller } from "./hostile/world.js";
import { openTestApp, type TestApp } from "./support.js";

/**
 * A seeded fuzzer over the route table (issue 10): hostile path parameters, query values and
 * bodies to every operation as a site admin, a normal user (who owns the fixture, so requests
 * get past access checks) and an anonymous caller. No answer may be 5xx; a 2 MiB JSON body
 * is 413. KILN_FUZZ_ITERATIONS (requests per route and actor) and KILN_FUZZ_SEED change the run.
 * The full run is on PGlite; PostgreSQL gets a tenth of the iterations (at least one).
 */

const ITERATIONS = Number(process.env.KILN_FUZZ_ITERATIONS ?? 20);
const SEED = Number(process.env.KILN_FUZZ_SEED ?? 0x6b696c6e);
const TWO_MIB = 2 * 1024 * 1024;

interface Fixture {
  readonly values: Readonly<Record<string, string>>;
  readonly actors: Readonly<Record<string, RawRequest["credential"]>>;
}

async function buildFixture(t: TestApp, call: RawCaller): Promise<Fixture> {
  const admin = await t.user({ admin: true, name: "fz-admin" });
  const owner = await t.user({ name: "fz-owner" });
  const friend = await t.user({ name: "fz-friend" });
  const as = { token: owner.token };
  const must = async (req: RawRequest) => {
    const res = await call(req);
    if (res.status >= 300) throw new Error(`fixture: ${req.method} ${req.path} → ${res.status} ${res.text}`);
    return res;
  };
  await must({
    method: "POST",
    path: "/user/repos",
    credential: as,
    body: { name: "fz-repo", auto_init: true },
  });
  await must({ method: "POST", path: "/orgs", credential: as, body: { username: "fz-org" } });
  const team = await must({
    method: "POST",
    path: "/orgs/fz-org/teams",
    credential: as,
    body: { name: "fz-team", permission: "read", units: ["repo.code"] },
  });
  await must({
    method: "POST",
    path: "/orgs/fz-org/repos",
    credential: as,
    body: { name: "fz-orepo", auto_init: true },
  });
  const repo = await must({ method: "GET", path: "/repos/fz-owner/fz-repo", credential: as });
  const branch = await must({ method: "GET", path: "/repos/fz-owner/fz-repo/branches/main", credential: as });
  await must({
    method: "PUT",
    path: "/repos/fz-owner/fz-repo/collaborators/fz-friend",
    credential: as,
    body: { permission: "read" },
  });
  await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/tags",
    credential: as,
    body: { tag_name: "v1" },
  });
  await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/branch_protections",
    credential: as,
    body: { branch_name: "main" },
  });
  const adminCred = { token: admin.token };
  await must({
    method: "POST",
    path: "/admin/quota/rules",
    credential: adminCred,
    body: { name: "fz-rule", limit: 1000, subjects: ["size:all"] },
  });
  await must({
    method: "POST",
    path: "/admin/quota/groups",
    credential: adminCred,
    body: { name: "fz-group" },
  });
  const tokens = await must({
    method: "GET",
    path: "/users/fz-owner/tokens",
    credential: { basic: owner.basic },
  });
  return {
    values: {
      owner: "fz-owner",
      username: "fz-owner",
      repo: "fz-repo",
      org: "fz-org",
      collaborator: friend.name,
      teamId: String(team.json.id),
      repoId: String(repo.json.id),
      sha: branch.json.commit.id,
      branch: "main",
      ref: "main",
      filepath: "README.md",
      tag: "v1",
      name: "main",
      token: String(tokens.json[0].id),
      quotarule: "fz-rule",
      quotagroup: "fz-group",
    },
    actors: { admin: adminCred, user: as, anonymous: null },
  };
}

function validValue(route: AnyRoute, param: string, f: Fixture): string {
  if (param === "id")
    return route.path.includes("/teams/") ? (f.values.teamId ?? "1") : (f.values.repoId ?? "1");
  if (param === "ref" && route.path.includes("/git/refs/")) return "heads/main";
  if (param === "repo" && route.path.includes("/teams/")) return "fz-orepo";
  if (param === "owner" && route.path.includes("/teams/")) return "fz-org";
  return f.values[param] ?? "1";
}

/** One fuzzed request of a route: which parts are hostile is drawn from the PRNG. */
function fuzzRequest(
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

/** With KILN_HOSTILE_REPORT=<file>, failures are also appended there, one a line (for triage). */
function report(dialect: string, failures: string[]): void {
  const file = process.env.KILN_HOSTILE_REPORT;
  if (file) appendFileSync(file, failures.map((f) => `${dialect} fuzz ${f.replace(/\n/g, " ")}\n`).join(""));
}

/** Hostile LFS batch bodies (the batch endpoint is outside the route table). */
function lfsBodies(rng: Rng): { label: string; raw: string }[] {
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

describe.each(DIALECTS)("the fuzzer on %s", (dialect) => {
  let t: TestApp;
  let call: RawCaller;
  let fixture: Fixture;
  let routes: AnyRoute[];
  const iterations = dialect === "pglite" ? ITERATIONS : Math.max(1, Math.floor(ITERATIONS / 10));

  beforeAll(async () => {
    t = await openTestApp(dialect);
    call = rawCaller(t);
    routes = enabledRoutes(t.settings);
    fixture = await buildFixture(t, call);
  }, 300_000);
  afterAll(() => t?.close());

  it(`finds no 5xx in ${iterations} hostile requests per route and caller`, async () => {
    const failures: string[] = [];
    const rng = prng(SEED);
    for (const route of routes) {
      for (const [actor, credential] of Object.entries(fixture.actors)) {
        for (let i = 0; i < iterations; i++) {
          const { path, init, input } = fuzzRequest(route, fixture, rng);
          const method = route.method.toUpperCase();
          try {
            const res = await call({ method, path, credential, ...init });
            if (res.status >= 500)
              failures.push(
                `${actor}: ${method} ${route.path} with ${input} → ${res.status} ${excerpt(res.text)} (sent ${excerpt(path, 160)})`,
              );
          } catch (err) {
            failures.push(
              `${actor}: ${method} ${route.path} with ${input} → threw ${(err as Error).message}`,
            );
          }
        }
      }
    }
    report(dialect, failures);
    expect(failures).toEqual([]);
  }, 600_000);

  it("finds no 5xx in hostile LFS batch requests", async () => {
    const failures: string[] = [];
    const rng = prng(SEED + 1);
    for (const [actor, credential] of Object.entries(fixture.actors)) {
      const basic =
        credential && "token" in credential
          ? { basic: [actor === "admin" ? "fz-admin" : "fz-owner", credential.token] as const }
          : null;
      for (const repo of ["fz-owner/fz-repo.git", "fz-owner/%00.git", "%00/x.git"]) {
        for (const { label, raw } of lfsBodies(rng)) {
          const path = `/${repo}/info/lfs/objects/batch`;
          const res = await call({
            method: "POST",
            path,
            root: true,
            credential: basic,
            rawBody: raw,
            headers: {
              "Content-Type": "application/vnd.git-lfs+json",
              Accept: "application/vnd.git-lfs+json",
            },
          });
          if (res.status >= 500)
            failures.push(`${actor}: POST ${path} with ${label} → ${res.status} ${excerpt(res.text)}`);
        }
      }
    }
    report(dialect, failures);
    expect(failures).toEqual([]);
  }, 300_000);

  it("answers a 2 MiB JSON body with 413 on every route that takes a body (or refuses the caller first)", async () => {
    const failures: string[] = [];
    const big = JSON.stringify({ name: "x".repeat(TWO_MIB) });
    for (const route of routes) {
      if (!route.body || (route.bodyLimit ?? 0) > TWO_MIB) continue;
      const values = Object.fromEntries(
        pathParams(route.path).map((p) => [p, validValue(route, p, fixture)]),
      );
      const path = fillPath(route.path, values);
      for (const [actor, credential] of Object.entries(fixture.actors)) {
        const res = await call({
          method: route.method.toUpperCase(),
          path,
          credential,
          rawBody: big,
          headers: { "Content-Type": "application/json" },
        });
        const refusedFirst =
          (actor !== "admin" && [401, 403, 404].includes(res.status)) ||
          (route.access === "password" && res.status === 401);
        if (res.status !== 413 && !refusedFirst)
          failures.push(
            `${actor}: ${route.method.toUpperCase()} ${path} with a 2 MiB body → ${res.status} ${excerpt(res.text)}`,
          );
      }
    }
    report(dialect, failures);
    expect(failures).toEqual([]);
  }, 600_000);
});
