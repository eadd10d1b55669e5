import { Channel, exit as exitMsg } from "@kiln/protocol/wire";
import { errorFromText } from "../errors/from-text.js";
import { startState } from "../state.js";
import { flush, send } from "../transport.js";

/**
 * Ends the process with `code` by sending EXIT; the host stops the isolate, so this never returns
 * unless the host refused the message (the script broke the runtime's encoder): then it throws.
 */
export function exit(code = 0): never {
  const value = Number(code);
  let refused: string | undefined;
  send(Channel.os, exitMsg({ code: Number.isInteger(value) ? value : 1 }), (reason) => {
    refused = reason;
  });
  // EXIT leaves now, with everything queued before it: the loop below never yields.
  flush();
  if (refused !== undefined) throw errorFromText(refused);
  // The host ends the run and stops the isolate on EXIT; nothing after exit() may run until
  // then, and a loop (unlike a throw) cannot be caught by the script.
  for (;;) {}
}

/** The exports of the built-in module "kiln": the script's arguments and exit(). */
export function kilnModuleExports(): Record<string, unknown> {
  const exports: Record<string, unknown> = { args: Object.freeze(startState.argv.slice(1)), exit };
  Object.defineProperty(exports, "__esModule", { value: true });
  exports.default = { args: exports.args, exit };
  return exports;
}
