import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type LoopbackServer, serveDirectory, startServer } from "./helpers/loopback-server.js";
import { runKiln } from "./helpers/run-kiln.js";

/**
 * Each folder of tests/conformance/ is one case: the script (`main.ts` or `main.js`, or the
 * `script` of case.json), the exact stdout it must print (stdout.expected), and in case.json
 * its flags, args, exit code and patterns stderr must match (stderr must be empty otherwise).
 * With `"serve": "remote"` the case's remote/ folder is served on a loopback port, and
 * `{{ORIGIN}}` / `{{HOST}}` in the case's files (and `{{HOST}}` in its flags) are replaced by its
 * origin / host:port.
 */
interface Case {
  readonly script?: string;
  readonly flags?: string[];
  readonly args?: string[];
  readonly exitCode?: number;
  readonly stderr?: string[];
  readonly serve?: string;
}

const root = fileURLToPath(new URL("./conformance/", import.meta.url));
const names = (await readdir(root, { withFileTypes: true }))
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const work = await mkdtemp(join(tmpdir(), "kiln-conformance-"));
afterAll(() => rm(work, { recursive: true, force: true }));

async function substitute(dir: string, origin: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const text = await readFile(path, "utf8");
    if (text.includes("{{ORIGIN}}") || text.includes("{{HOST}}")) {
      await writeFile(
        path,
        text.replaceAll("{{ORIGIN}}", origin).replaceAll("{{HOST}}", new URL(origin).host),
      );
    }
  }
}

describe("conformance", () => {
  it("has cases", () => {
    expect(names.length).toBeGreaterThan(10);
  });

  for (const name of names) {
    it(name, async () => {
      const spec = JSON.parse(await readFile(join(root, name, "case.json"), "utf8")) as Case;
      const dir = join(work, name);
      await cp(join(root, name), dir, { recursive: true });
      let server: LoopbackServer | undefined;
      try {
        if (spec.serve) {
          server = await startServer(serveDirectory(join(dir, spec.serve)));
          await substitute(dir, server.origin);
        }
        const files = await readdir(dir);
        const script = spec.script ?? (files.includes("main.ts") ? "main.ts" : "main.js");
        const host = server ? new URL(server.origin).host : "";
        const flags = (spec.flags ?? []).map((flag) => flag.replaceAll("{{HOST}}", host));
        const args = ["--cachedir", join(dir, ".cache"), ...flags, script, ...(spec.args ?? [])];
        const result = await runKiln(args, dir);
        const expected = await readFile(join(dir, "stdout.expected"), "utf8");
        expect(result.stdout).toBe(expected);
        for (const pattern of spec.stderr ?? []) expect(result.stderr).toMatch(new RegExp(pattern));
        if (!spec.stderr?.length) expect(result.stderr).toBe("");
        expect(result.code).toBe(spec.exitCode ?? 0);
      } finally {
        await server?.close();
      }
    });
  }
});
