import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { NO_PERMISSIONS, Permissions } from "../permissions.js";
import { CompileCache } from "./compile-cache.js";
import { HostCompiler } from "./host-compiler.js";
import { ModuleService } from "./module-service.js";
import { RemoteModules } from "./remote-cache.js";

// The built worker (the package is built before its tests run).
const compiler = new HostCompiler(
  fileURLToPath(new URL("../../../dist/host/modules/compile-worker.js", import.meta.url)),
);
const root = await mkdtemp(join(tmpdir(), "kiln-module-service-"));
const app = join(root, "app");
await mkdir(app, { recursive: true });
await writeFile(join(app, "main.ts"), 'import "./dep.ts";\n');
await writeFile(join(app, "dep.ts"), "export const dep: number = 1;\n");
afterAll(async () => {
  compiler.close();
  await rm(root, { recursive: true, force: true });
});

function service(): ModuleService {
  const permissions = new Permissions(NO_PERMISSIONS, app, app);
  const limits = { maxModuleBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 };
  return new ModuleService(
    new CompileCache(join(root, "cache"), compiler),
    new RemoteModules(join(root, "cache"), false, permissions, limits),
    permissions,
    limits.maxModuleBytes,
    app,
  );
}

describe("ModuleService", () => {
  it("answers imports from the working directory and from modules it served, with host-compiled output", async () => {
    const modules = service();
    const main = await modules.codeFetch("./main.ts", `${app}/`);
    expect(main.codeFetchResModuleName).toBe(join(app, "main.ts"));
    expect(main.codeFetchResOutputCode).toMatch(/^System\.register\(\[\s*"\.\/dep\.ts"\s*\]/);
    const dep = await modules.codeFetch("./dep.ts", join(app, "main.ts"));
    expect(dep.codeFetchResOutputCode).not.toContain(": number");
  });

  it("refuses an import that claims to come from a module it never served", async () => {
    const modules = service();
    await expect(modules.codeFetch("./dep.ts", join(app, "never-served.ts"))).rejects.toThrow(
      /CODE_FETCH from ".*never-served\.ts", which is not a module of this run/,
    );
    await expect(modules.codeFetch("passwd", "/etc/")).rejects.toThrow(/not a module of this run/);
  });

  it("accepts the working directory as the importer of the main module only", async () => {
    const modules = service();
    await modules.codeFetch("./main.ts", `${app}/`);
    await expect(modules.codeFetch("./dep.ts", `${app}/`)).rejects.toThrow(/not a module of this run/);
  });
});
