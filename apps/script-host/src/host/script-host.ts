import { Channel, encodeEnvelope, type Msg, start, timerReady } from "@kiln/protocol";
import { type Direction, debugLine } from "./debug-log.js";
import { HostFetcher } from "./fetcher.js";
import { IsolateBridge } from "./isolate-bridge.js";
import { CompileCache } from "./modules/compile-cache.js";
import { ModuleService } from "./modules/module-service.js";
import { RemoteModules } from "./modules/remote-cache.js";
import { loadRuntimeBundle, type RuntimeBundle } from "./runtime-bundle.js";
import { RuntimeMessages } from "./runtime-messages.js";
import { HostTimers } from "./timers.js";

/** Everything one run of a script needs. */
export interface ScriptHostOptions {
  /** The script, then its arguments. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly allowNet: boolean;
  readonly reload: boolean;
  readonly debug: boolean;
  readonly cacheDir: string;
  readonly memoryLimitMb: number;
  readonly timeoutSeconds?: number | undefined;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The runtime to send in START; the one built into dist/runtime/ unless given (tests, tools). */
  readonly runtimeBundle?: RuntimeBundle | undefined;
}

/**
 * Runs one script: owns the isolate, answers the runtime's messages (modules, cache, timers,
 * fetch, exit) and decides when the process is done — when the runtime sends EXIT, or when nothing
 * is pending any more (no timers, fetches or messages in flight).
 */
export class ScriptHost {
  #bridge: IsolateBridge | undefined;
  #inFlight = 0;
  #mainSettled = false;
  #finished = false;
  #finish: (code: number) => void = () => {};
  #deadline: NodeJS.Timeout | undefined;
  readonly #timers: HostTimers;
  readonly #fetcher: HostFetcher;
  readonly #finishBeforeExit = new Set<Promise<unknown>>();
  readonly #deliveries = new Set<Promise<void>>();
  readonly #abort = new AbortController();

  constructor(private readonly options: ScriptHostOptions) {
    this.#timers = new HostTimers((id, done) => this.#deliver(Channel.timers, timerReady({ id, done })));
    this.#fetcher = new HostFetcher(options.allowNet, this.#abort.signal);
  }

  /** Runs the script to its end and resolves to the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => {
      this.#finish = resolve;
    });
    const bundle = this.options.runtimeBundle ?? loadRuntimeBundle();
    const log = this.options.debug ? (line: string) => this.options.stderr(`[debug] ${line}\n`) : undefined;
    const modules = new ModuleService(
      new CompileCache(this.options.cacheDir, bundle.id),
      new RemoteModules(this.options.cacheDir, this.options.reload, log, this.#abort.signal),
    );
    const messages = new RuntimeMessages({
      timers: this.#timers,
      fetcher: this.#fetcher,
      modules,
      deliver: (channel, msg) => this.#deliver(channel, msg),
      track: (work, options) => this.#track(work, options),
      exit: (code) => this.#end(code),
      checkIdle: () => this.#checkIdle(),
      trace: (direction, bytes) => this.#trace(direction, bytes),
      warn: (text) => this.options.stderr(text),
    });
    this.#bridge = await IsolateBridge.create(this.options.memoryLimitMb, {
      send: (bytes) => {
        if (!this.#finished) messages.onSend(bytes);
      },
      request: (bytes) => messages.onRequest(bytes),
      print: (text, stream) => {
        if (!this.#finished) (stream === 2 ? this.options.stderr : this.options.stdout)(text);
      },
    });
    if (this.options.timeoutSeconds !== undefined) {
      const seconds = this.options.timeoutSeconds;
      this.#deadline = setTimeout(
        () => this.#end(1, `error: script timed out after ${seconds} s (--timeout)\n`),
        seconds * 1000,
      );
    }
    const startMsg = start({
      cwd: this.options.cwd,
      argv: this.options.argv,
      debugFlag: this.options.debug,
      mainJs: bundle.js,
      mainMap: bundle.map,
    });
    const bytes = encodeEnvelope(Channel.start, startMsg);
    this.#trace("host->runtime", bytes);
    this.#inFlight++;
    this.#watch(this.#bridge.deliver(bytes, { awaitResult: true })).then(
      () => {
        this.#mainSettled = true;
        this.#checkIdle();
      },
      (failure) => this.#fail(failure),
    );
    this.#watch(this.#bridge.barrier()).then(
      () => {
        this.#inFlight--;
        this.#checkIdle();
      },
      (failure) => this.#fail(failure),
    );
    return done;
  }

  /**
   * Hands raw bytes to the runtime as if they were a message from the host. For tools and tests
   * that exercise the runtime's handling of malformed input.
   */
  deliverRaw(bytes: Uint8Array): void {
    this.#deliverBytes(bytes);
  }

  #deliver(channel: string, msg: Msg): void {
    this.#deliverBytes(encodeEnvelope(channel, msg));
  }

  #deliverBytes(bytes: Uint8Array): void {
    if (this.#finished || !this.#bridge) return;
    this.#trace("host->runtime", bytes);
    this.#inFlight++;
    this.#watch(this.#bridge.deliver(bytes)).then(
      () => {
        this.#inFlight--;
        this.#checkIdle();
      },
      (failure) => {
        this.#inFlight--;
        this.#fail(failure);
      },
    );
  }

  #watch(delivery: Promise<void>): Promise<void> {
    this.#deliveries.add(delivery);
    const forget = () => this.#deliveries.delete(delivery);
    delivery.then(forget, forget);
    return delivery;
  }

  #track(work: Promise<unknown>, { beforeExit = false } = {}): void {
    this.#inFlight++;
    if (beforeExit) this.#finishBeforeExit.add(work);
    const settle = () => {
      this.#inFlight--;
      this.#finishBeforeExit.delete(work);
      this.#checkIdle();
    };
    work.then(settle, settle);
  }

  #checkIdle(): void {
    if (this.#finished || this.#inFlight > 0 || this.#timers.size > 0) return;
    // Messages the isolate sent just before going quiet arrive in order; look again after them.
    setImmediate(() => {
      if (this.#finished || this.#inFlight > 0 || this.#timers.size > 0) return;
      if (this.#mainSettled) this.#end(0);
      else this.#end(1, "error: top-level await promise never resolved\n");
    });
  }

  #fail(failure: unknown): void {
    if (this.#finished) return;
    const message = failure instanceof Error ? failure.message : String(failure);
    if (/memory limit/i.test(message)) {
      this.#end(
        1,
        `error: script exceeded the memory limit of ${this.options.memoryLimitMb} MB (--memory-limit)\n`,
      );
      return;
    }
    this.#end(1, `error: Uncaught (in promise) ${formatThrown(failure)}\n`);
  }

  #end(code: number, message?: string): void {
    if (this.#finished) return;
    this.#finished = true;
    if (message) this.options.stderr(message);
    clearTimeout(this.#deadline);
    this.#timers.clearAll();
    this.#bridge?.dispose();
    // Compiled output already sent with CODE_CACHE is still written, so no half-written cache
    // file is left behind; the isolate's thread unwinds (every delivery settles) first, and
    // downloads and fetches still running are aborted.
    this.#abort.abort();
    const settled = Promise.allSettled([...this.#finishBeforeExit, ...this.#deliveries]);
    const grace = new Promise((resolve) => setTimeout(resolve, 2000).unref());
    Promise.race([settled, grace]).then(() => this.#finish(code));
  }

  #trace(direction: Direction, bytes: Uint8Array): void {
    if (this.options.debug) this.options.stderr(debugLine(direction, bytes));
  }
}

/** A value thrown in the isolate, as text: its (already source-mapped) stack without host frames. */
function formatThrown(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const stack = thrown.stack ?? `${thrown.name}: ${thrown.message}`;
  const lines = stack.split("\n");
  const boundary = lines.findIndex((line) => line.includes("<isolated-vm boundary>"));
  return (boundary === -1 ? lines : lines.slice(0, boundary)).join("\n");
}
