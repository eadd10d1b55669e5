import type IsolatedVM from "isolated-vm-5";
import { bootScript } from "./boot-script.js";
import ivm from "./ivm.js";
import type { Refusals } from "./refusals.js";

/** What the isolate may call on the host; every argument is a copy made at the boundary. */
export interface HostBindings {
  /**
   * A batch of messages from the runtime that need no answer (timers, fetch, EXIT…). Called
   * synchronously: the isolate waits until the host has taken the batch, so a script that sends
   * without pause is held back instead of piling work up in the host. Returns what the host
   * refused of it (copied into the isolate), or nothing.
   */
  send(bytes: Uint8Array): Refusals | undefined;
  /** A request from the runtime that blocks it until answered (CODE_FETCH). */
  request(bytes: Uint8Array): Promise<Uint8Array>;
  /**
   * Console output: text for stdout (1) or stderr (2); synchronous like `send`. Returns true when
   * the output is backing up: the runtime then waits on `drained` before printing more.
   */
  print(text: string, stream: number): boolean;
  /** Resolves once the output written so far has been taken by its reader. */
  drained(): Promise<void>;
}

/**
 * One V8 isolate (isolated-vm) with its context and the bindings of the protocol: inside it the
 * boot code takes `__kiln_send`, `__kiln_request` and `__kiln_print` off the global object and
 * nothing of Node is reachable; the host calls the boot entry with batches of encoded BaseMsg
 * frames. The isolate runs on its own thread, so a busy script never blocks the host's event loop.
 */
export class IsolateBridge {
  private constructor(
    private readonly isolate: IsolatedVM.Isolate,
    private readonly entry: IsolatedVM.Reference<(bytes?: Uint8Array) => unknown>,
    private readonly noop: IsolatedVM.Reference<() => void>,
  ) {}

  /**
   * Creates the isolate with a heap limit, installs the bindings and the boot code, and starts
   * running `preload` (the runtime, compiled from V8's code cache) in the context when given (see
   * {@link ready}): START then finds the runtime loaded instead of evaluating `start_main_js`.
   */
  static async create(
    memoryLimitMb: number,
    bindings: HostBindings,
    preload?: (isolate: IsolatedVM.Isolate) => IsolatedVM.Script,
  ): Promise<IsolateBridge> {
    const isolate = new ivm.Isolate({ memoryLimit: Math.max(8, memoryLimitMb) });
    const context = isolate.createContextSync();
    const global = context.global;
    global.setSync("globalThis", global.derefInto());
    global.setSync("__kiln_send", new ivm.Callback((bytes: Uint8Array) => bindings.send(bytes)));
    global.setSync(
      "__kiln_print",
      new ivm.Callback((text: string, stream: number) => bindings.print(String(text), Number(stream))),
    );
    global.setSync("__kiln_drained_ref", new ivm.Reference(() => bindings.drained()));
    global.setSync(
      "__kiln_request_ref",
      new ivm.Reference(async (bytes: Uint8Array) =>
        new ivm.ExternalCopy(await bindings.request(bytes)).copyInto(),
      ),
    );
    const entry = context.evalSync(bootScript, { reference: true, filename: "kiln:boot.js" });
    // The runtime handles each message of a batch after the first by calling its own entry
    // through this reference (see runtime/transport.ts); the boot code takes it off the global
    // object at START, before any script code runs.
    global.setSync("__kiln_self_ref", entry);
    const noop = context.evalSync("(() => undefined)", { reference: true, filename: "kiln:noop.js" });
    const bridge = new IsolateBridge(
      isolate,
      entry as IsolatedVM.Reference<(bytes?: Uint8Array) => unknown>,
      noop as IsolatedVM.Reference<() => void>,
    );
    // The runtime runs on the isolate's thread while this one goes on (the calls that follow, START
    // first, are queued behind it); compiling it from the code cache stays here, as what it makes
    // decides whether new data is kept.
    if (preload) bridge.ready = preload(isolate).run(context, { release: true });
    return bridge;
  }

  /** Settles once the preloaded runtime has run (rejects if it threw). */
  ready: Promise<unknown> = Promise.resolve();

  /**
   * Hands one batch of framed BaseMsg to the runtime in one call. The runtime handles each message
   * in a task of its own (the first in this call, the others through calls to itself, see
   * runtime/transport.ts), so the isolate runs its microtasks between them. Resolves when the
   * runtime has handled them all (for START: when the main module has finished evaluating);
   * rejects with whatever the isolate threw, including an unhandled promise rejection or the
   * isolate being disposed.
   */
  async deliver(bytes: Uint8Array): Promise<void> {
    const argument = new ivm.ExternalCopy(bytes).copyInto({ release: true });
    await this.entry.apply(undefined, [argument], { result: { promise: true, copy: true } });
  }

  /**
   * Resolves once every task queued in the isolate before it has finished (tasks run in order).
   * START's delivery resolves only when the main module is done; this tells when its synchronous
   * part is over.
   */
  async barrier(): Promise<void> {
    await this.noop.apply(undefined, []);
  }

  /** Heap statistics of the isolate, for benchmarks and debug logs. */
  heapUsedBytes(): number {
    return this.isolate.isDisposed ? 0 : this.isolate.getHeapStatisticsSync().used_heap_size;
  }

  /** Stops whatever runs in the isolate and frees it. Safe to call twice. */
  dispose(): void {
    this.#disposedByHost = true;
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }

  #disposedByHost = false;

  /**
   * Whether isolated-vm disposed the isolate itself, which it does when the isolate passes its
   * memory limit. The error then reaches whoever waited on the task that was running; a batch's
   * messages after the first run in tasks the runtime started itself, so the host sees only its
   * own call abandoned and asks here why.
   */
  get disposedAtMemoryLimit(): boolean {
    return this.isolate.isDisposed && !this.#disposedByHost;
  }
}
