import { readFileSync } from "node:fs";
import { defaultSettings } from "@kiln/domain";
import { createServices, silentLogger } from "@kiln/service";
import { describe, expect, it } from "vitest";
import { createApp, enabledRoutes } from "../app.js";
import { swaggerPath } from "../route.js";
import { allRoutes } from "../routes/index.js";

const forgejo = new Map<string, string>(
  readFileSync(new URL("../../test/fixtures/forgejo-operations.tsv", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t"))
    .map(([method, path, operationId]) => [`${method} ${path}`, operationId ?? ""]),
);

describe("the API description", () => {
  const settings = defaultSettings("/tmp/kiln-swagger-test");
  const app = createApp({
    services: createServices({ db: null as never, settings, logger: silentLogger }),
    settings,
    logger: silentLogger,
  });
  const routes = enabledRoutes(settings);
  const forgejoOperations = [...forgejo.keys()].filter((op) => !op.includes(" /activitypub/"));

  async function swagger() {
    const res = await app.request("http://localhost:3000/swagger.v1.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    return (await res.json()) as {
      swagger: string;
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
      definitions: Record<string, unknown>;
      securityDefinitions: Record<string, { name?: string }>;
    };
  }

  it("is Swagger 2.0 with Forgejo's security definitions, including the TOTP header", async () => {
    const doc = await swagger();
    expect(doc.swagger).toBe("2.0");
    expect(Object.keys(doc.securityDefinitions).sort()).toEqual(
      ["AuthorizationHeaderToken", "BasicAuth", "SudoHeader", "SudoParam", "TOTPHeader"].sort(),
    );
    expect(doc.securityDefinitions.TOTPHeader?.name).toBe("X-FORGEJO-OTP");
  });

  it("lists every route, with Forgejo's operationId for the same method and path", async () => {
    const doc = await swagger();
    expect(routes.length).toBeGreaterThan(10);
    for (const r of allRoutes) {
      const path = swaggerPath(r.path);
      const op = doc.paths[path]?.[r.method];
      expect(op, `${r.method.toUpperCase()} ${path} missing from swagger`).toBeDefined();
      expect(op?.operationId).toBe(r.operationId);
      const theirs = forgejo.get(`${r.method.toUpperCase()} ${path}`);
      if (r.extension) {
        // A Kiln extension must not shadow an operation Forgejo has (then it is no extension).
        expect(theirs, `${r.method.toUpperCase()} ${path} is a Forgejo operation`).toBeUndefined();
        continue;
      }
      expect(theirs, `${r.method.toUpperCase()} ${path} is not a Forgejo operation`).toBeDefined();
      expect(r.operationId).toBe(theirs);
    }
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(documented).toBe(allRoutes.length);
  });

  it("lists operations a setting turns off, as Forgejo's does, while their routes answer 404", async () => {
    expect(settings.repository.enableFlags).toBe(false);
    expect(settings.federation.enabled).toBe(false);
    const doc = await swagger();
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const op of [
      "GET /repos/{owner}/{repo}/flags",
      "PUT /repos/{owner}/{repo}/flags",
      "DELETE /repos/{owner}/{repo}/flags",
      "GET /repos/{owner}/{repo}/flags/{flag}",
      "PUT /repos/{owner}/{repo}/flags/{flag}",
      "DELETE /repos/{owner}/{repo}/flags/{flag}",
      "GET /nodeinfo",
    ]) {
      expect(ops, op).toContain(op);
      expect(routes.some((r) => `${r.method.toUpperCase()} ${swaggerPath(r.path)}` === op)).toBe(false);
    }
    // Every Forgejo operation but ActivityPub's, whatever the settings.
    expect(ops.filter((op) => forgejo.has(op))).toHaveLength(forgejoOperations.length);
    expect(forgejoOperations).toHaveLength(458);
    expect((await app.request("http://localhost:3000/api/v1/nodeinfo")).status).toBe(404);
    expect((await app.request("http://localhost:3000/api/v1/repos/a/b/flags")).status).toBe(404);
  });

  it("resolves every $ref to a definition generated from the valibot schemas", async () => {
    const doc = await swagger();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/definitions\/(\w+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(doc.definitions, `definition ${name}`).toHaveProperty(name as string);
    expect(doc.definitions.User).toMatchObject({
      type: "object",
      properties: { id: { type: "integer", format: "int64" } },
    });
  });

  it("serves an interactive page for the description", async () => {
    const page = await app.request("http://localhost:3000/api/swagger");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("swagger.v1.json");
    const asset = await app.request("http://localhost:3000/assets/swagger-ui/swagger-ui-bundle.js");
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
  });
});
