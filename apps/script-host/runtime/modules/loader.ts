import { Channel, codeCache, codeFetch } from "@kiln/protocol";
import { startState } from "../state.js";
import { request, send } from "../transport.js";
import { compileModule, staticImports, wrapModule } from "./compile.js";
import { kilnModuleExports } from "./kiln-module.js";
import type { ModuleRecord } from "./module-record.js";

const registry = new Map<string, ModuleRecord>();
let mainModule: ModuleRecord | undefined;

/** A loaded module by name (a path or URL), for mapping stack traces. */
export function moduleByName(name: string): ModuleRecord | undefined {
  return registry.get(name);
}

function builtin(name: string, exports: Record<string, unknown>): ModuleRecord {
  const record: ModuleRecord = {
    name,
    filename: name,
    exports,
    deps: new Map(),
    body: undefined,
    source: "",
    code: "",
    state: "done",
    evaluation: undefined,
    error: undefined,
  };
  registry.set(name, record);
  return record;
}

function debug(line: string): void {
  if (startState.debug) console.error(`[debug] runtime: ${line}`);
}

/**
 * Loads a module and, recursively, its static imports: CODE_FETCH to the host, then either the
 * cached output it returned or a fresh compile that is sent back with CODE_CACHE. A module that
 * is already loaded (by name) is returned as it is, so it is evaluated only once.
 */
export function loadModule(specifier: string, containingFile: string): ModuleRecord {
  if (specifier === "kiln") return registry.get("kiln") ?? builtin("kiln", kilnModuleExports());
  const answer = request(codeFetch({ moduleSpecifier: specifier, containingFile }));
  const name = answer.codeFetchResModuleName;
  const known = registry.get(name);
  if (known) return known;
  let output = answer.codeFetchResOutputCode;
  if (output === "") {
    output = compileModule(name, answer.codeFetchResSourceCode);
    debug(`compiled ${name}`);
    send(
      Channel.os,
      codeCache({
        filename: answer.codeFetchResFilename,
        sourceCode: answer.codeFetchResSourceCode,
        outputCode: output,
      }),
    );
  }
  const record: ModuleRecord = {
    name,
    filename: answer.codeFetchResFilename,
    exports: {},
    deps: new Map(),
    body: wrapModule(output, name),
    source: answer.codeFetchResSourceCode,
    code: output,
    state: "linked",
    evaluation: undefined,
    error: undefined,
  };
  registry.set(name, record);
  for (const spec of staticImports(output)) record.deps.set(spec, loadModule(spec, name));
  return record;
}

function fail(record: ModuleRecord, error: unknown): never {
  record.state = "failed";
  record.error = error;
  throw error;
}

function urlOf(name: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(name) ? name : `file://${encodeURI(name)}`;
}

function runBody(record: ModuleRecord): void | Promise<void> {
  record.state = "evaluating";
  const $import = (spec: string) => {
    const dep = record.deps.get(spec);
    if (!dep) throw new Error(`kiln: "${spec}" was not loaded for ${record.name}`);
    return dep.exports;
  };
  const dynamicImport = async (spec: unknown) => {
    const dep = loadModule(String(spec), record.name);
    await evaluateModule(dep);
    return dep.exports;
  };
  const meta = { url: urlOf(record.name), main: record === mainModule, filename: record.filename };
  const result = record.body!.call(undefined, record.exports, $import, dynamicImport, meta);
  if (!(result instanceof Promise)) {
    record.state = "done";
    return;
  }
  record.evaluation = result.then(
    () => {
      record.state = "done";
    },
    (error) => fail(record, error),
  );
  return record.evaluation;
}

/**
 * Evaluates a module after its imports, in import order, as ES modules are. Synchronous while
 * nothing awaits; returns a promise once a module uses top-level await. In an import cycle, a
 * module still evaluating its imports is skipped, as the ES module algorithm does.
 */
export function evaluateModule(record: ModuleRecord): void | Promise<void> {
  switch (record.state) {
    case "done":
    case "evaluating-deps":
      return;
    case "evaluating":
      return record.evaluation;
    case "failed":
      throw record.error;
  }
  record.state = "evaluating-deps";
  const deps = [...record.deps.values()];
  const from = (index: number): void | Promise<void> => {
    for (let i = index; i < deps.length; i++) {
      const pending = evaluateModule(deps[i]!);
      if (pending) return pending.then(() => from(i + 1));
    }
    return runBody(record);
  };
  try {
    const pending = from(0);
    if (pending) {
      record.evaluation = pending.catch((error) => fail(record, error));
      return record.evaluation;
    }
  } catch (error) {
    fail(record, error);
  }
}

/** Loads and evaluates the main module (the script named first in argv). */
export async function runMain(specifier: string, cwd: string): Promise<void> {
  const record = loadModule(specifier, cwd.endsWith("/") ? cwd : `${cwd}/`);
  mainModule = record;
  await evaluateModule(record);
}
