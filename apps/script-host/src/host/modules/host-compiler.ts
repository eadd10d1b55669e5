import { COMPILE_THREAD_STACK_MB, CompileThread, CompileThreadUnavailable } from "./compile-thread.js";
import { COMPILER_ID, compileWithSwcOnPool, type ModuleCompiler, preloadSwc } from "./compiler.js";
import { CompilerProcess } from "./compiler-process.js";
import { syntaxUnits, unitsForStack } from "./nesting.js";

/** The stack of libuv's pool threads: 8 MiB, set by libuv whatever the process's stack limit. */
const POOL_STACK_BYTES = 8 * 1024 * 1024;
/** Modules with at most this many syntax units compile on libuv's pool (512). */
export const POOL_MAX_UNITS = unitsForStack(POOL_STACK_BYTES);
/** Modules with at most this many syntax units compile on the compile thread (32,768). */
export const THREAD_MAX_UNITS = unitsForStack(COMPILE_THREAD_STACK_MB * 1024 * 1024);
/**
 * Larger sources compile in the compiler process whatever their nesting: SWC's memory grows with
 * the source, and the host keeps what a script can make it hold within a fixed budget.
 */
export const IN_PROCESS_MAX_CHARS = 1024 * 1024;

/** Where a module is compiled. */
export type CompilePlace = "pool" | "thread" | "process";

/**
 * Which compiler can take a module without risk to the host: SWC is native code, and a stack
 * overflow in it would kill the process, so the module's nesting, bounded by its syntax units
 * (nesting.ts), must fit the stack of the thread that compiles it.
 */
export function compilePlace(source: string): CompilePlace {
  if (source.length > IN_PROCESS_MAX_CHARS) return "process";
  const units = syntaxUnits(source, THREAD_MAX_UNITS + 1);
  if (units <= POOL_MAX_UNITS) return "pool";
  if (units <= THREAD_MAX_UNITS) return "thread";
  return "process";
}

/**
 * The host's compiler. Every module is compiled by SWC with the same options (so with the same
 * output and compile-cache identity), in the cheapest place that is safe for it:
 * - on a thread of libuv's pool (8 MiB of stack) for modules of at most {@link POOL_MAX_UNITS}
 *   syntax units, which is most small modules: it costs loading SWC (~13 ms) once;
 * - on a compile thread with a 512 MiB stack for modules of at most {@link THREAD_MAX_UNITS}
 *   (tens of kilobytes of source): starting it costs ~30 ms once;
 * - in a compiler process for larger or deeper modules: starting it costs a Node start-up and
 *   SWC's load (~100 ms) once, and SWC crashing there fails that import, not the run.
 */
export class HostCompiler implements ModuleCompiler {
  readonly id = COMPILER_ID;
  readonly #thread: CompileThread;
  readonly #process: CompilerProcess;

  /** `worker`: the compile-worker script for the thread and the process (beside the built host by default). */
  constructor(worker?: string) {
    this.#thread = new CompileThread(worker);
    this.#process = new CompilerProcess(worker);
  }

  async compile(moduleName: string, source: string): Promise<string> {
    const place = compilePlace(source);
    if (place === "pool") return compileWithSwcOnPool(moduleName, source);
    if (place === "thread") {
      try {
        return await this.#thread.compile(moduleName, source);
      } catch (failure) {
        if (!(failure instanceof CompileThreadUnavailable)) throw failure;
      }
    }
    return this.#process.compile(moduleName, source);
  }

  /**
   * Gets ready to compile `source` soon: loads SWC or starts the thread or process it will need,
   * so that this overlaps with the isolate's start instead of following it.
   */
  prepare(source: string): void {
    const place = compilePlace(source);
    if (place === "pool") preloadSwc();
    else if (place === "thread") this.#thread.start();
    else this.#process.start();
  }

  /** Stops the compile thread and the compiler process, if they run. */
  close(): void {
    this.#thread.close();
    this.#process.close();
  }
}
