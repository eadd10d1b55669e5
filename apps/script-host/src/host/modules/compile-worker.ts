import { createInterface } from "node:readline";
import { isMainThread, parentPort } from "node:worker_threads";
import { HostError } from "../errors.js";
import { compileWithSwc } from "./compiler.js";

/**
 * The compiler outside the host's main thread, in one of two places:
 * - a worker thread with a large stack (compile-thread.ts): requests and answers are messages;
 * - a child process (compiler-process.ts): one JSON request per line on stdin, one JSON answer
 *   per line on stdout.
 * A request is `{id, name, source}`; an answer `{id, code}` or `{id, kind, message}`.
 */
export interface CompileRequest {
  readonly id: number;
  readonly name: string;
  readonly source: string;
}

export type CompileAnswer =
  | { readonly id: number; readonly code: string }
  | { readonly id: number; readonly kind: string; readonly message: string };

function answer(request: CompileRequest): CompileAnswer {
  try {
    return { id: request.id, code: compileWithSwc(request.name, request.source) };
  } catch (error) {
    return error instanceof HostError
      ? { id: request.id, kind: error.kind, message: error.message }
      : { id: request.id, kind: "Error", message: error instanceof Error ? error.message : String(error) };
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on("message", (request: CompileRequest) => port.postMessage(answer(request)));
} else {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    let request: CompileRequest;
    try {
      request = JSON.parse(line);
    } catch {
      return;
    }
    process.stdout.write(`${JSON.stringify(answer(request))}\n`);
  });
}
