import type { Namespace, Setter } from "./module-record.js";

/** What a compiled module's `declare` returns: one setter per dependency and its top level. */
export interface Declaration {
  readonly setters: readonly Setter[];
  readonly execute: (() => unknown) | undefined;
}

/** `_context` of a SystemJS module: `import.meta` and dynamic `import()`. */
export interface ModuleContext {
  readonly id: string;
  readonly meta: Record<string, unknown>;
  import(specifier: unknown): Promise<Namespace>;
}

/** A compiled module's registration: its dependency specifiers and its `declare` function. */
export interface Registration {
  readonly deps: readonly string[];
  readonly declare: (
    exportFn: (name: string | Record<string, unknown>, value?: unknown) => unknown,
    context: ModuleContext,
  ) => Declaration;
}

/**
 * Evaluates a module's compiled code (the host's `System.register([...], declare)`) and returns
 * its registration. The code runs as the body of a function whose only parameter is `System`,
 * on lines of its own after a one-line header, and is named by `sourceURL` in stack traces.
 */
export function evaluateRegistration(code: string, moduleName: string): Registration {
  // biome-ignore lint/security/noGlobalEval: module code is evaluated in the isolate, its only boundary
  const evaluate = globalThis.eval as (text: string) => (system: unknown) => void;
  const wrapper = evaluate(`(function (System) {\n${code}\n})\n//# sourceURL=${moduleName}`);
  let registration: Registration | undefined;
  wrapper({
    register(deps: unknown, declare: unknown) {
      if (!Array.isArray(deps) || typeof declare !== "function") {
        throw new TypeError(`kiln: ${moduleName} did not register as a module`);
      }
      registration = { deps: deps.map(String), declare: declare as Registration["declare"] };
    },
  });
  if (!registration) throw new TypeError(`kiln: ${moduleName} did not register as a module`);
  return registration;
}

/** The first line of the evaluated text is the wrapper's header; the code starts on line 2. */
export const HEADER_LINES = 1;
