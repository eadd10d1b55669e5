import { createInterface } from "node:readline";
import { HostError } from "../errors.js";
import { compileWithSwc } from "./compiler.js";

/**
 * The compiler process: reads one JSON request per line on stdin (`{id, name, source}`) and
 * answers one JSON line on stdout per request (`{id, code}` or `{id, kind, message}`). It runs
 * apart from the host so that SWC, native code that a deeply nested module can crash, takes only
 * this process down.
 */
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on("line", (line) => {
  let request: { id: number; name: string; source: string };
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  let answer: Record<string, unknown>;
  try {
    answer = { id: request.id, code: compileWithSwc(request.name, request.source) };
  } catch (error) {
    answer =
      error instanceof HostError
        ? { id: request.id, kind: error.kind, message: error.message }
        : { id: request.id, kind: "Error", message: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
