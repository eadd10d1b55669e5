import { Channel, exit as exitMsg } from "@kiln/protocol";
import { startState } from "../state.js";
import { request } from "../transport.js";

/** Ends the process with `code` by sending EXIT; the host stops the isolate, so this never returns. */
export function exit(code = 0): never {
  const value = Number(code);
  request(exitMsg({ code: Number.isInteger(value) ? value : 1 }));
  throw new Error(`kiln: exit(${code}) returned (channel ${Channel.os})`);
}

/** The exports of the built-in module "kiln": the script's arguments and exit(). */
export function kilnModuleExports(): Record<string, unknown> {
  const exports: Record<string, unknown> = { args: Object.freeze(startState.argv.slice(1)), exit };
  Object.defineProperty(exports, "__esModule", { value: true });
  exports.default = { args: exports.args, exit };
  return exports;
}
