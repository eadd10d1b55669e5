import { print } from "../bindings.js";
import { inspect } from "../globals/inspect.js";
import { exit } from "../modules/kiln-module.js";

/** Formats a thrown value for the uncaught-error report: an Error's mapped stack, or its inspection. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.stack ?? `${thrown.name}: ${thrown.message}`;
  return inspect(thrown);
}

/**
 * Reports an error nothing caught (decision 17, docs/decisions.md): prints it with its source-mapped stack
 * to stderr and exits with code 1. Syntax errors in modules print without "Uncaught".
 */
export function reportUncaught(thrown: unknown): never {
  const syntax = thrown instanceof SyntaxError && thrown.stack === `SyntaxError: ${thrown.message}`;
  print(`error: ${syntax ? "" : "Uncaught "}${describeThrown(thrown)}\n`, 2);
  return exit(1);
}
