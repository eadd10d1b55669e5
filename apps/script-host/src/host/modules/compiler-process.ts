import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { HostError } from "../errors.js";
import { PendingCompiles } from "./compile-answers.js";
import type { CompileAnswer } from "./compile-worker.js";

/**
 * The compile worker script: compile-worker.cjs beside the bundled dist/kiln-run.cjs, or
 * compile-worker.js beside this file in dist/host/modules/.
 */
export function compileWorkerPath(): string {
  const candidates = [
    new URL("./compile-worker.cjs", import.meta.url),
    new URL("./compile-worker.js", import.meta.url),
  ];
  const found = candidates.map((url) => fileURLToPath(url)).find((path) => existsSync(path));
  if (!found) throw new Error("kiln-run: the compile worker is missing; run the build first");
  return found;
}

/**
 * SWC in a child process, for modules too large or too deeply nested to compile in the host
 * (see host-compiler.ts). Started on the first such module of a run and kept for the rest of it.
 * When SWC crashes (a module nested deeply enough overflows its native stack), the module being
 * compiled fails with a SyntaxError and the next compile starts a new process; the host itself
 * is not touched.
 */
export class CompilerProcess {
  #child: ChildProcess | undefined;
  readonly #pending = new PendingCompiles();

  /** `worker`: the compile-worker script to run (found beside the built host by default). */
  constructor(private readonly worker?: string) {}

  compile(moduleName: string, source: string): Promise<string> {
    const child = this.#child ?? this.start();
    return this.#pending.add(moduleName, (id) => {
      child.stdin?.write(`${JSON.stringify({ id, name: moduleName, source })}\n`);
    });
  }

  /** Starts the process now, if it is not running, so that a compile soon finds it ready. */
  start(): ChildProcess {
    if (this.#child) return this.#child;
    // Loaded here, not at start-up: child_process and readline cost ~8 ms to load under
    // --no-node-snapshot, and most runs never start the compiler process.
    const require = createRequire(import.meta.url);
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const { createInterface } = require("node:readline") as typeof import("node:readline");
    const child = spawn(process.execPath, [this.worker ?? compileWorkerPath()], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    // The compiler process never keeps the host alive: the run decides when it is over.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    child.stdin?.on("error", () => {});
    const answers = createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY });
    answers.on("line", (line) => {
      let answer: CompileAnswer;
      try {
        answer = JSON.parse(line);
      } catch {
        return;
      }
      this.#pending.answer(answer);
    });
    child.on("exit", (code, signal) => {
      if (this.#child === child) this.#child = undefined;
      const reason = signal ? `crashed (${signal})` : `exited with code ${code}`;
      this.#pending.failAll(
        (name) =>
          new HostError(
            "SyntaxError",
            `the compiler ${reason} on ${name}; is it nested too deeply? at ${name}:1:1`,
          ),
      );
    });
    this.#child = child;
    return child;
  }

  /** Stops the compiler process, if one runs. */
  close(): void {
    this.#child?.kill();
    this.#child = undefined;
  }
}
