declare const require: (id: string) => unknown;

type Sucrase = typeof import("sucrase");
let sucrase: Sucrase | undefined;

/** The parameters of every module function, in order (see {@link wrapModule}). */
export const MODULE_PARAMETERS = ["exports", "$import", "__kiln_dynamic_import", "__kiln_meta"] as const;

const DYNAMIC_IMPORT = /Promise\.resolve\(\)\.then\(\(\) => _interopRequireWildcard\d*\(require\(/g;
const STATIC_IMPORT = /\brequire\('((?:[^'\\\n]|\\.)*)'\)/g;
const IMPORT_META = /\bimport\.meta\b/g;

/** A module whose source did not parse; the message ends with `file:line:column`. */
export class ModuleSyntaxError extends SyntaxError {
  constructor(message: string, moduleName: string, line: number, column: number) {
    super(`${message} at ${moduleName}:${line}:${column}`);
    this.stack = `SyntaxError: ${this.message}`;
  }
}

/** Whether a module is TypeScript, by the extension of its name (a path or URL). */
export function isTypeScript(moduleName: string): boolean {
  return /\.(ts|tsx|mts|cts)$/i.test(moduleName.replace(/[?#].*$/, ""));
}

/**
 * Compiles one module's source for this runtime with sucrase (bundled here; it strips types and
 * turns import/export into calls, keeping every line where it was). The output's imports
 * become `$import('spec')`, dynamic imports `__kiln_dynamic_import(...)` and `import.meta`
 * `__kiln_meta`, each the same length as what it replaces so columns stay put. This text is
 * what CODE_CACHE stores; stack positions are mapped back by aligning its lines with the source.
 */
export function compileModule(moduleName: string, source: string): string {
  sucrase ??= require("sucrase") as Sucrase;
  let result: ReturnType<Sucrase["transform"]>;
  try {
    result = sucrase.transform(source, {
      transforms: isTypeScript(moduleName) ? ["typescript", "imports"] : ["imports"],
      filePath: moduleName,
    });
  } catch (error) {
    const { loc, message } = error as { loc?: { line: number; column: number }; message: string };
    const reason = message.replace(/^Error transforming .*?: /, "").replace(/ \(\d+:\d+\)$/, "");
    if (loc) throw new ModuleSyntaxError(reason, moduleName, loc.line, loc.column);
    throw error;
  }
  return result.code
    .replace(DYNAMIC_IMPORT, (match) => "__kiln_dynamic_import(((".padEnd(match.length, " "))
    .replace(STATIC_IMPORT, (_match, spec: string) => `$import('${spec}')`)
    .replace(IMPORT_META, "__kiln_meta");
}

/** The static import specifiers of compiled code, in source order, without repeats. */
export function staticImports(code: string): string[] {
  const specs = new Set<string>();
  for (const match of code.matchAll(/\$import\('((?:[^'\\\n]|\\.)*)'\)/g)) specs.add(match[1]!);
  return [...specs];
}

/**
 * Turns compiled code into a function of {@link MODULE_PARAMETERS}. The module's first line is
 * line 2 of the evaluated text (line 1 is the header); `sourceURL` names it in stack traces. A
 * module that uses top-level await needs an async function; other modules get a plain one, so a
 * graph without top-level await evaluates synchronously, as ES modules do.
 */
export function wrapModule(code: string, moduleName: string): (...args: unknown[]) => unknown {
  const tail = `\n})\n//# sourceURL=${moduleName}`;
  const header = (async: boolean) =>
    `(${async ? "async " : ""}function (${MODULE_PARAMETERS.join(", ")}) {"use strict";\n`;
  // Evaluating module code is this loader's whole job; the isolate is the security boundary.
  // biome-ignore lint/security/noGlobalEval: indirect eval of compiled module code, in the isolate
  const evaluate = globalThis.eval as (text: string) => (...args: unknown[]) => unknown;
  try {
    return evaluate(header(false) + code + tail);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return evaluate(header(true) + code + tail);
  }
}
