import { createRequire } from "node:module";
import type { Options } from "@swc/core";
import { HostError } from "../errors.js";

/** The SWC version the host compiles with; part of every compile-cache key. */
export const SWC_VERSION = "1.16.22";

/**
 * Compiles modules outside the isolate: TypeScript types are stripped and the module syntax
 * becomes a `System.register([deps], declare)` call, the SystemJS module format the runtime's
 * loader links. Both steps work on SWC's syntax tree, so no string literal, comment or template
 * can be mistaken for an import or `import.meta`. The output ends with its source map inline,
 * which the runtime reads to show TypeScript positions in stack traces.
 */
export interface ModuleCompiler {
  /** Identifies the compiler and its options: output from another identity is never reused. */
  readonly id: string;
  /** Compiled output for one module; rejects with a HostError "SyntaxError: … at name:line:column". */
  compile(moduleName: string, source: string): Promise<string>;
  /** Gets ready to compile `source` soon (loads or starts what it needs); a hint, never required. */
  prepare?(source: string): void;
}

/** What the host uses of SWC's native binding (`@swc/core/binding.js`). */
interface SwcBinding {
  transformSync(source: string, isModule: boolean, options: Buffer): { code: string; map?: string };
  transform(source: string, isModule: boolean, options: Buffer): Promise<{ code: string; map?: string }>;
}
let swc: SwcBinding | undefined;

/**
 * SWC's native binding, loaded on the first compile only (a cached run never loads it). The
 * binding is loaded without `@swc/core`'s JavaScript wrapper, which adds ~10 ms of module loading
 * (`assert`, the bundler API) to the ~13 ms of loading the native library; the wrapper only
 * serialises the options, as {@link swcOptions} does. The version is checked once, since the
 * compile cache keys entries by it.
 */
function loadSwc(): SwcBinding {
  if (swc) return swc;
  const require = createRequire(import.meta.url);
  const { version } = require("@swc/core/package.json") as { version: string };
  if (version !== SWC_VERSION) {
    throw new Error(`kiln-run: @swc/core ${version} found, ${SWC_VERSION} expected`);
  }
  swc = require("@swc/core/binding.js") as SwcBinding;
  return swc;
}

/** Loads SWC now, if it is not loaded yet (a run that will compile soon loads it while the isolate starts). */
export function preloadSwc(): void {
  loadSwc();
}

/** The options as the binding takes them: JSON in a buffer, as `@swc/core`'s wrapper passes them. */
function swcOptions(moduleName: string): Buffer {
  return Buffer.from(JSON.stringify(optionsFor(moduleName)));
}

/** The options of every compile, apart from the file name; they are part of {@link ModuleCompiler.id}. */
function optionsFor(moduleName: string): Options {
  const path = moduleName.replace(/[?#].*$/, "");
  const typescript = /\.(ts|mts|cts|tsx)$/i.test(path);
  return {
    filename: moduleName,
    swcrc: false,
    configFile: false,
    sourceMaps: true,
    inlineSourcesContent: false,
    jsc: {
      parser: typescript
        ? { syntax: "typescript", tsx: /\.tsx$/i.test(path) }
        : { syntax: "ecmascript", jsx: /\.jsx$/i.test(path) },
      target: "es2022",
    },
    module: { type: "systemjs" },
    isModule: true,
  };
}

/** The compiler identity: SWC's version and the options (any change to either invalidates the cache). */
export const COMPILER_ID = `swc-${SWC_VERSION}-systemjs-es2022-inline-map-1`;

/**
 * Compiles one module with SWC on the calling thread. SWC is native code: a module nested more
 * deeply than the thread's stack allows kills the process, so callers check the module's
 * `syntaxUnits` (nesting.ts) against the thread's stack first (see host-compiler.ts).
 */
export function compileWithSwc(moduleName: string, source: string): string {
  let result: { code: string; map?: string };
  try {
    result = loadSwc().transformSync(source, false, swcOptions(moduleName));
  } catch (failure) {
    throw syntaxError(moduleName, failure);
  }
  return withMap(result);
}

/**
 * Compiles one module with SWC on a thread of libuv's pool, whose stacks are 8 MiB whatever the
 * process's stack limit (libuv sets their size itself). The same checks as for
 * {@link compileWithSwc} apply, against that size.
 */
export async function compileWithSwcOnPool(moduleName: string, source: string): Promise<string> {
  let result: { code: string; map?: string };
  try {
    result = await loadSwc().transform(source, false, swcOptions(moduleName));
  } catch (failure) {
    throw syntaxError(moduleName, failure);
  }
  return withMap(result);
}

function withMap(result: { code: string; map?: string }): string {
  return result.map ? `${result.code}\n${inlineMap(result.map)}` : result.code;
}

/**
 * The source map as a `data:` URL the runtime can decode without base64 (the isolate has no
 * `atob`): percent-encoded JSON.
 */
function inlineMap(map: string): string {
  return `//# sourceMappingURL=data:application/json;charset=utf-8,${encodeURIComponent(map)}`;
}

/**
 * SWC reports a parse error as a rendered diagnostic: `  x Expression expected`, a header
 * `,-[file:line:column]`, numbered source lines (` 3 | …`) and a caret line under the exact
 * column. The message and position are read from it; the result reads like Deno's
 * (`Expression expected at file:3:35`).
 */
export function syntaxError(moduleName: string, failure: unknown): HostError {
  const text = failure instanceof Error ? failure.message : String(failure);
  const lines = text.split("\n");
  const message = /^\s*x\s+(.+)$/.exec(lines[0] ?? "")?.[1]?.trim() ?? "invalid syntax";
  let line = Number(/,-\[.*:(\d+):(\d+)\]/.exec(text)?.[1] ?? 1);
  let column = 1;
  for (let i = 1; i < lines.length; i++) {
    const caret = /^(\s*):(\s*)\^/.exec(lines[i] ?? "");
    const numbered = /^\s*(\d+) \|/.exec(lines[i - 1] ?? "");
    if (!caret || !numbered) continue;
    line = Number(numbered[1]);
    column = caret[2]!.length;
    break;
  }
  return new HostError("SyntaxError", `${message} at ${moduleName}:${line}:${Math.max(1, column)}`);
}
