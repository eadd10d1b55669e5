import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
import { PendingCompiles } from "./compile-answers.js";
import type { CompileAnswer } from "./compile-worker.js";
import { compileWorkerPath } from "./compiler-process.js";

/** The stack of the compile thread: what lets it compile modules nested far deeper than 8 MiB allows. */
export const COMPILE_THREAD_STACK_MB = 512;

/** The compile thread could not be started or stopped unexpectedly; the caller compiles elsewhere. */
export class CompileThreadUnavailable extends Error {}

/**
 * SWC in a worker thread of this process with a {@link COMPILE_THREAD_STACK_MB} MiB stack (only
 * the part a compile touches takes memory), for modules too deeply nested for the 8 MiB threads
 * of libuv's pool and shallow enough for this stack (see host-compiler.ts). Started on the first
 * such module and kept for the rest of the run. Node 20's `worker_threads` is loaded only then.
 */
export class CompileThread {
  #worker: Worker | undefined;
  readonly #pending = new PendingCompiles();

  /** `script`: the compile-worker script to run (found beside the built host by default). */
  constructor(private readonly script?: string) {}

  compile(moduleName: string, source: string): Promise<string> {
    const worker = this.#worker ?? this.start();
    return this.#pending.add(moduleName, (id) => worker.postMessage({ id, name: moduleName, source }));
  }

  /** Starts the thread now, if it is not running, so that a compile soon finds it ready. */
  start(): Worker {
    if (this.#worker) return this.#worker;
    const { Worker } = createRequire(import.meta.url)(
      "node:worker_threads",
    ) as typeof import("node:worker_threads");
    const worker = new Worker(this.script ?? compileWorkerPath(), {
      resourceLimits: { stackSizeMb: COMPILE_THREAD_STACK_MB },
      stdout: true,
      stderr: true,
    });
    // The thread never keeps the host alive: the run decides when it is over.
    worker.unref();
    worker.on("message", (answer: CompileAnswer) => this.#pending.answer(answer));
    const gone = (why: string) => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#pending.failAll(
        (name) => new CompileThreadUnavailable(`the compile thread ${why} compiling ${name}`),
      );
    };
    worker.on("error", (error) => gone(`failed (${error.message})`));
    worker.on("exit", (code) => gone(`exited with code ${code}`));
    this.#worker = worker;
    return worker;
  }

  /** Stops the thread, if one runs. */
  close(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
  }
}
