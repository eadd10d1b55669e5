import { appendFileSync } from "node:fs";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enabledRoutes } from "../src/app.js";
import type { AnyRoute } from "../src/route.js";
import { routeBodyLimit } from "../src/validation.js";
import { buildFixture, type Fixture, validValue } from "./hostile/fuzz-fixture.js";
import { prng } from "./hostile/fuzz-inputs.js";
import { fuzzRequest, lfsBodies } from "./hostile/fuzz-request.js";
import { excerpt } from "./hostile/leaks.js";
import { type RawCaller, rawCaller } from "./hostile/raw-caller.js";
import { fillPath, pathParams } from "./hostile/targets.js";
import { openTestApp, type TestApp } from "./support.js";

/**
 * A seeded fuzzer over the route table: hostile path parameters, query values and
 * bodies to every operation as a site admin, a normal user (who owns the fixture, so requests
 * get past access checks) and an anonymous caller. No answer may be 5xx; a 2 MiB JSON body
 * is 413. KILN_FUZZ_ITERATIONS (requests per route and actor) and KILN_FUZZ_SEED change the run.
 * The full run is on PGlite; PostgreSQL gets a tenth of the iterations (at least one).
 */

const ITERATIONS = Number(process.env.KILN_FUZZ_ITERATIONS ?? 20);
const SEED = Number(process.env.KILN_FUZZ_SEED ?? 0x6b696c6e);
const TWO_MIB = 2 * 1024 * 1024;

/** With KILN_HOSTILE_REPORT=<file>, failures are also appended there, one a line (for triage). */
function report(dialect: string, failures: string[]): void {
  const file = process.env.KILN_HOSTILE_REPORT;
  if (file) appendFileSync(file, failures.map((f) => `${dialect} fuzz ${f.replace(/\n/g, " ")}\n`).join(""));
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
      if (!route.body || routeBodyLimit(route, t.settings) > TWO_MIB) continue;
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
        // A name a fuzzed rename or transfer left behind redirects (307) before the body is read.
        const refusedFirst =
          res.status === 307 ||
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
