import { startState } from "../state.js";
import { mapPosition } from "./source-maps.js";

interface CallSite {
  getFileName(): string | null | undefined;
  getScriptNameOrSourceURL(): string | null | undefined;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
  getFunctionName(): string | null;
  getTypeName(): string | null;
  getMethodName(): string | null;
  isConstructor(): boolean;
  isAsync(): boolean;
  isToplevel(): boolean;
  isNative(): boolean;
}

function describeSite(site: CallSite): string | undefined {
  // Module code is evaluated with a sourceURL naming the module, which only this call reports.
  const fileName = site.getScriptNameOrSourceURL() || site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!fileName || line === null || column === null || fileName.startsWith("<isolated-vm")) return undefined;
  if (fileName.startsWith("kiln:") && !startState.debug) return undefined;
  const position = mapPosition(fileName, line, column);
  const location = `${position.file}:${position.line}:${position.column}`;
  let name = site.getFunctionName();
  // A module's top level is the `execute` function of its registration, called without a
  // receiver; V8 names it after the property. Like Deno, show the top level without a name.
  if (name === "execute" && site.isToplevel() && !fileName.startsWith("kiln:")) name = null;
  if (name && !site.isToplevel() && !site.isConstructor()) {
    const type = site.getTypeName();
    if (type && !name.startsWith(`${type}.`)) name = `${type}.${name}`;
  }
  const prefix = `${site.isAsync() ? "async " : ""}${site.isConstructor() ? "new " : ""}`;
  return name || prefix ? `    at ${prefix}${name ?? "<anonymous>"} (${location})` : `    at ${location}`;
}

/**
 * Installs V8's `Error.prepareStackTrace` hook so every stack trace shows positions in the
 * TypeScript (or JavaScript) sources, not in the compiled code; the runtime's own frames are
 * left out unless --debug is on.
 */
export function installStackTraces(): void {
  (Error as unknown as { prepareStackTrace: unknown }).prepareStackTrace = (
    error: Error,
    sites: CallSite[],
  ) => {
    let head: string;
    try {
      head = `${error.name ?? "Error"}${error.message ? `: ${error.message}` : ""}`;
    } catch {
      head = "Error";
    }
    const frames = sites.map(describeSite).filter((frame) => frame !== undefined);
    return [head, ...frames].join("\n");
  };
}
