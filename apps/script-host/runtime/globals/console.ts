import { print } from "../bindings.js";
import { inspect } from "./inspect.js";

function format(args: readonly unknown[]): string {
  return args.map((arg) => inspect(arg)).join(" ");
}

/** The `console` global: log/info/debug to stdout, error/warn/trace to stderr. */
export const kilnConsole = {
  log: (...args: unknown[]) => print(`${format(args)}\n`, 1),
  info: (...args: unknown[]) => print(`${format(args)}\n`, 1),
  debug: (...args: unknown[]) => print(`${format(args)}\n`, 1),
  error: (...args: unknown[]) => print(`${format(args)}\n`, 2),
  warn: (...args: unknown[]) => print(`${format(args)}\n`, 2),
  trace: (...args: unknown[]) => {
    const stack = new Error().stack?.split("\n").slice(2).join("\n") ?? "";
    print(`Trace${args.length ? `: ${format(args)}` : ""}\n${stack}\n`, 2);
  },
  assert: (condition: unknown, ...args: unknown[]) => {
    if (!condition) print(`Assertion failed${args.length ? `: ${format(args)}` : ""}\n`, 2);
  },
};
