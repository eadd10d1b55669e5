import { codeFetch } from "@kiln/protocol/wire";
import { request } from "../transport.js";
import { kilnModuleExports } from "./kiln-module.js";
import type { ModuleRecord, Namespace, Setter } from "./module-record.js";
import { evaluateRegistration } from "./register.js";

const NativePromise = Promise;
// Taken before any script runs: a script that replaces Promise.prototype.then must not be able to
// stop its own modules from finishing (nor the run from ending).
const then = NativePromise.prototype.then;
const apply = Reflect.apply;
/** `promise.then(onFulfilled, onRejected)` with the built-in `then`. */
function whenSettled<T>(
  promise: Promise<unknown>,
  onFulfilled: ((value: unknown) => T | Promise<T>) | undefined,
  onRejected?: (error: unknown) => T | Promise<T>,
): Promise<T> {
  return apply(then, promise, [onFulfilled, onRejected]) as Promise<T>;
}
const registry = new Map<string, ModuleRecord>();

/** A loaded module by name (a path or URL), for mapping stack traces. */
export function moduleByName(name: string): ModuleRecord | undefined {
  return registry.get(name);
}

function createNamespace(): Namespace {
  const namespace = Object.create(null) as Namespace;
  Object.defineProperty(namespace, Symbol.toStringTag, { value: "Module" });
  return namespace;
}

function builtin(name: string, exports: Record<string, unknown>): ModuleRecord {
  const namespace = createNamespace();
  Object.assign(namespace, exports);
  const record: ModuleRecord = {
    name,
    filename: name,
    namespace,
    importers: [],
    deps: [],
    execute: undefined,
    code: "",
    state: "done",
    evaluation: undefined,
    error: undefined,
  };
  registry.set(name, record);
  return record;
}

function urlOf(name: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(name) ? name : `file://${encodeURI(name)}`;
}

/** Asks the host for a module: CODE_FETCH, answered with its name and the host's compiled code. */
function fetchModule(specifier: string, containingFile: string) {
  try {
    return request(codeFetch({ moduleSpecifier: specifier, containingFile }));
  } catch (error) {
    // A module that does not parse is reported like Deno reports it: the message with its
    // position, without a stack of the runtime's frames.
    if (error instanceof SyntaxError) error.stack = `SyntaxError: ${error.message}`;
    throw error;
  }
}

/**
 * Loads a module and, recursively, its static imports: CODE_FETCH to the host, which resolves,
 * checks, reads and compiles it; then the module's registration is evaluated and linked to its
 * imports through the setters it declared. A module already loaded (by name) is returned as it
 * is, so it is evaluated only once and import cycles link as in ES modules.
 */
export function loadModule(specifier: string, containingFile: string, main = false): ModuleRecord {
  if (specifier === "kiln") return registry.get("kiln") ?? builtin("kiln", kilnModuleExports());
  const answer = fetchModule(specifier, containingFile);
  const name = answer.codeFetchResModuleName;
  const known = registry.get(name);
  if (known) return known;
  const code = answer.codeFetchResOutputCode;
  if (code === "") throw new Error(`kiln: the host sent no compiled code for ${name}`);
  const registration = evaluateRegistration(code, name);
  const namespace = createNamespace();
  const importers: Setter[] = [];
  const exportFn = (key: string | Record<string, unknown>, value?: unknown) => {
    if (typeof key === "object" && key !== null) {
      for (const property of Object.keys(key)) namespace[property] = key[property];
    } else {
      namespace[String(key)] = value;
    }
    for (const setter of importers) setter?.(namespace);
    return value;
  };
  const context = {
    id: name,
    meta: { url: urlOf(name), main, filename: answer.codeFetchResFilename },
    import: (spec: unknown) => dynamicImport(String(spec), name),
  };
  const { setters, execute } = registration.declare(exportFn, context);
  const record: ModuleRecord = {
    name,
    filename: answer.codeFetchResFilename,
    namespace,
    importers,
    deps: [],
    execute,
    code,
    state: "linked",
    evaluation: undefined,
    error: undefined,
  };
  registry.set(name, record);
  registration.deps.forEach((spec, index) => {
    const dep = loadModule(spec, name);
    record.deps.push(dep);
    const setter = setters[index];
    if (setter) {
      dep.importers.push(setter);
      setter(dep.namespace);
    }
  });
  return record;
}

async function dynamicImport(specifier: string, containingFile: string): Promise<Namespace> {
  const dep = loadModule(specifier, containingFile);
  await evaluateModule(dep);
  return dep.namespace;
}

function fail(record: ModuleRecord, error: unknown): never {
  record.state = "failed";
  record.error = error;
  throw error;
}

function runBody(record: ModuleRecord): void | Promise<void> {
  record.state = "evaluating";
  const result = record.execute?.call(undefined);
  if (!(result instanceof NativePromise)) {
    record.state = "done";
    return;
  }
  record.evaluation = whenSettled<void>(
    result,
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
  const deps = record.deps;
  const from = (index: number): void | Promise<void> => {
    for (let i = index; i < deps.length; i++) {
      const pending = evaluateModule(deps[i]!);
      if (pending) return whenSettled(pending, () => from(i + 1));
    }
    return runBody(record);
  };
  try {
    const pending = from(0);
    if (pending) {
      record.evaluation = whenSettled<void>(pending, undefined, (error) => fail(record, error));
      return record.evaluation;
    }
  } catch (error) {
    fail(record, error);
  }
}

/** Loads and evaluates the main module (the script named first in argv). */
export async function runMain(specifier: string, cwd: string): Promise<void> {
  const record = loadModule(specifier, cwd.endsWith("/") ? cwd : `${cwd}/`, true);
  await evaluateModule(record);
}
