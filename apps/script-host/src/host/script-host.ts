import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Channel,
  encodeEnvelope,
  encodeEnvelopeFrame,
  encodeFrame,
  type Msg,
  start,
  timerReady,
} from "@kiln/protocol/wire";
import { isTimerId, timerReadyFrameSize, writeTimerReady } from "../shared/timer-frames.js";
import { type Direction, debugLine } from "./debug-log.js";
import { HostFetcher } from "./fetcher.js";
import { IsolateBridge } from "./isolate-bridge.js";
import { DEFAULT_LIMITS, type HostLimits } from "./limits.js";
import { CompileCache } from "./modules/compile-cache.js";
import { HostCompiler } from "./modules/host-compiler.js";
import { ModuleService } from "./modules/module-service.js";
import { RemoteModules } from "./modules/remote-cache.js";
import { NO_PERMISSIONS, type PermissionFlags, Permissions } from "./permissions.js";
import { loadRuntimeBundle, type RuntimeBundle } from "./runtime-bundle.js";
import { compileRuntime } from "./runtime-code-cache.js";
import { RuntimeMessages } from "./runtime-messages.js";
import { HostTimers } from "./timers.js";

/** Everything one run of a script needs. */
export interface ScriptHostOptions {
  /** The script, then its arguments. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** What the script may reach (`--allow-read`, `--allow-net`, `--allow-import`); nothing when absent. */
  readonly permissions?: PermissionFlags | undefined;
  /** What the host holds for the script at most; {@link DEFAULT_LIMITS} for any not given. */
  readonly limits?: Partial<HostLimits> | undefined;
  readonly reload: boolean;
  readonly debug: boolean;
  readonly cacheDir: string;
  readonly memoryLimitMb: number;
  readonly timeoutSeconds?: number | undefined;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Bytes written to stdout and stderr and not yet taken by their readers (for backpressure). */
  readonly outputBuffered?: (() => number) | undefined;
  /** Resolves once stdout and stderr have no output waiting. */
  readonly outputDrained?: (() => Promise<void>) | undefined;
  /**
   * Called once the isolate is busy starting the script: a chance to make the output stream
   * (costly under --no-node-snapshot) while this thread would otherwise wait.
   */
  readonly prepareOutput?: (() => void) | undefined;
  /** The runtime to send in START; the one built into dist/runtime/ unless given (tests, tools). */
  readonly runtimeBundle?: RuntimeBundle | undefined;
}

/** Output waiting for its reader beyond which a printing script waits (console.log blocks). */
const OUTPUT_SOFT_LIMIT = 1024 * 1024;
/** Output waiting beyond which the run ends: a runtime that ignores the wait. */
const OUTPUT_HARD_LIMIT = 64 * 1024 * 1024;

/**
 * Runs one script: owns the isolate, answers the runtime's messages (modules, cache, timers,
 * fetch, exit) and decides when the process is done — when the runtime sends EXIT, or when nothing
 * is pending any more (no timers, fetches or messages in flight).
 */
export class ScriptHost {
  #bridge: IsolateBridge | undefined;
  #messages: RuntimeMessages | undefined;
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
  readonly #compiler = new HostCompiler();
  readonly #limits: HostLimits;
  readonly #permissions: Permissions;
  /**
   * Frames for the runtime, written one after another and delivered together as one batch at the
   * next turn of the event loop.
   */
  #outbox = new Uint8Array(4096);
  #outboxBytes = 0;
  #outboxMessages = 0;
  #flushScheduled = false;
  /** A batch has been handed to the runtime and is not handled yet. */
  #batchOnItsWay = false;
  /** Intervals whose TIMER_READY waits in the outbox or is on its way. */
  readonly #waitingIntervals = new Set<number>();

  constructor(private readonly options: ScriptHostOptions) {
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    const script = options.argv[0] ?? ".";
    const entryDir = entryFolder(script, options.cwd);
    this.#permissions = new Permissions(options.permissions ?? NO_PERMISSIONS, entryDir, options.cwd);
    this.#timers = new HostTimers(
      (id, done) => (done ? this.#deliverTimerReady(id, true) : this.#intervalFired(id)),
      this.#limits.maxTimers,
    );
    this.#fetcher = new HostFetcher(
      this.#permissions,
      {
        maxInFlight: this.#limits.maxFetchesInFlight,
        maxBodyBytes: this.#limits.maxFetchBytes,
        maxBufferedBytes: this.#limits.maxFetchBufferedBytes,
      },
      this.#abort.signal,
    );
  }

  /** Runs the script to its end and resolves to the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => {
      this.#finish = resolve;
    });
    const bundle = this.options.runtimeBundle ?? loadRuntimeBundle();
    const log = this.options.debug ? (line: string) => this.options.stderr(`[debug] ${line}\n`) : undefined;
    const limits = this.#limits;
    const modules = new ModuleService(
      new CompileCache(this.options.cacheDir, this.#compiler, log, (write) =>
        this.#track(write, { beforeExit: true }),
      ),
      new RemoteModules(
        this.options.cacheDir,
        this.options.reload,
        this.#permissions,
        { maxModuleBytes: limits.maxModuleBytes, maxTotalBytes: limits.maxDownloadBytes },
        log,
        this.#abort.signal,
      ),
      this.#permissions,
      limits.maxModuleBytes,
      this.options.cwd,
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
      debug: this.options.debug,
      warn: (text) => this.options.stderr(text),
      fail: (text) => this.#end(1, text),
      limits,
    });
    this.#messages = messages;
    // The built-in runtime is compiled from V8's code cache and run before START; a runtime
    // given by a test or tool is evaluated from START's start_main_js instead.
    const preload = this.options.runtimeBundle
      ? undefined
      : (isolate: Parameters<typeof compileRuntime>[0]) =>
          compileRuntime(isolate, bundle, this.options.cacheDir, log);
    this.#bridge = await IsolateBridge.create(
      this.options.memoryLimitMb,
      {
        send: (bytes) => (this.#finished ? undefined : messages.onSend(bytes)),
        request: (bytes) => messages.onRequest(bytes),
        print: (text, stream) => {
          if (this.#finished) return false;
          (stream === 2 ? this.options.stderr : this.options.stdout)(text);
          const buffered = this.options.outputBuffered?.() ?? 0;
          if (buffered > OUTPUT_HARD_LIMIT) {
            this.#end(1, "error: the script's output is not being read\n");
            return false;
          }
          return buffered > OUTPUT_SOFT_LIMIT;
        },
        drained: () => this.options.outputDrained?.() ?? Promise.resolve(),
      },
      preload,
    );
    this.#bridge.ready.then(undefined, (failure) => this.#fail(failure));
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
      // A runtime preloaded from the code cache needs no bundle in START, and its source map only
      // serves --debug (stack traces show the runtime's own frames only then): sending both
      // anyway cost ~50 ms of encoding and decoding 850 KB per start.
      mainJs: preload ? "" : bundle.js,
      mainMap: preload && !this.options.debug ? "" : bundle.map,
    });
    const bytes = encodeEnvelope(Channel.start, startMsg);
    this.#trace("host->runtime", bytes);
    this.#inFlight++;
    this.#watch(this.#bridge.deliver(encodeFrame(bytes))).then(
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
    // While the isolate's thread runs the runtime and START, this one gets ready for what comes
    // next: the compiler if the main module will need it, and the output stream.
    const script = this.options.argv[0];
    if (script !== undefined) void modules.prepareMain(mainSpecifier(script));
    this.options.prepareOutput?.();
    return done;
  }

  /**
   * Hands raw bytes to the runtime as if they were a message from the host (framed, in a batch of
   * their own). For tools and tests that exercise the runtime's handling of malformed input.
   */
  deliverRaw(bytes: Uint8Array): void {
    this.#trace("host->runtime", bytes);
    this.#deliverBatch(encodeFrame(bytes));
  }

  /**
   * Queues a message for the runtime; everything queued while the previous batch is still being
   * handled leaves together once it is done, so at most one batch is on its way at a time.
   */
  #deliver(channel: string, msg: Msg): void {
    if (this.#finished || !this.#bridge) return;
    if (this.options.debug) this.#trace("host->runtime", encodeEnvelope(channel, msg));
    const frame = encodeEnvelopeFrame(channel, msg);
    if (!this.#reserve(frame.byteLength)) return;
    this.#outbox.set(frame, this.#outboxBytes);
    this.#outboxBytes += frame.byteLength;
    this.#queued();
  }

  /**
   * Queues TIMER_READY as {@link #deliver} would, written straight into the outbox (timers fire by
   * the thousand); the same bytes, see timer-frames.ts.
   */
  #deliverTimerReady(id: number, done: boolean): void {
    if (this.options.debug || !isTimerId(id)) {
      this.#deliver(Channel.timers, timerReady({ id, done }));
      return;
    }
    if (this.#finished || !this.#bridge || !this.#reserve(timerReadyFrameSize(id, done))) return;
    this.#outboxBytes = writeTimerReady(this.#outbox, this.#outboxBytes, id, done);
    this.#queued();
  }

  /** Room for `bytes` more bytes in the outbox; false (and the run ends) past its limit. */
  #reserve(bytes: number): boolean {
    const needed = this.#outboxBytes + bytes;
    if (needed > this.#limits.maxOutboxBytes) {
      this.#end(
        1,
        `error: the script does not take its messages (more than ${this.#limits.maxOutboxBytes} bytes wait)\n`,
      );
      return false;
    }
    if (needed > this.#outbox.length) {
      let size = this.#outbox.length * 2;
      while (size < needed) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.#outbox.subarray(0, this.#outboxBytes));
      this.#outbox = grown;
    }
    return true;
  }

  /** A frame was written into the outbox. */
  #queued(): void {
    if (this.#outboxMessages++ === 0) this.#inFlight++; // the run is not idle while a batch waits
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled || this.#batchOnItsWay || this.#outboxMessages === 0) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flushOutbox();
    });
  }

  /**
   * An interval fired: its TIMER_READY is queued unless one is already waiting or on its way, as
   * Node skips interval runs a busy event loop missed instead of piling them up.
   */
  #intervalFired(id: number): void {
    if (this.#waitingIntervals.has(id)) return;
    this.#waitingIntervals.add(id);
    this.#deliverTimerReady(id, false);
  }

  #flushOutbox(): void {
    if (this.#batchOnItsWay || this.#outboxMessages === 0) return;
    const batch = this.#outbox.slice(0, this.#outboxBytes);
    // A large outbox is not kept once its burst has left.
    if (this.#outbox.length > 64 * 1024) this.#outbox = new Uint8Array(4096);
    this.#outboxBytes = 0;
    this.#outboxMessages = 0;
    this.#inFlight--;
    const intervals = [...this.#waitingIntervals];
    this.#batchOnItsWay = true;
    this.#deliverBatch(batch, () => {
      this.#batchOnItsWay = false;
      for (const id of intervals) this.#waitingIntervals.delete(id);
      this.#scheduleFlush();
    });
  }

  #deliverBatch(batch: Uint8Array, settled: () => void = () => {}): void {
    if (this.#finished || !this.#bridge) return;
    this.#inFlight++;
    this.#watch(this.#bridge.deliver(batch)).then(
      () => {
        this.#inFlight--;
        settled();
        this.#checkIdle();
      },
      (failure) => {
        this.#inFlight--;
        settled();
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
    if (/memory limit/i.test(message) || this.#bridge?.disposedAtMemoryLimit) {
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
    // Whatever ends the run, its last words name a refused message that may have been the cause.
    const note = this.#messages?.refused.note() ?? "";
    if (message || note) this.options.stderr(`${message ?? ""}${note}`);
    clearTimeout(this.#deadline);
    this.#timers.clearAll();
    this.#compiler.close();
    // Not at once: EXIT arrives while the isolate waits inside a call to the host, and the
    // isolate is disposed only after that call has returned to it.
    const bridge = this.#bridge;
    setImmediate(() => bridge?.dispose());
    // Work marked to finish before exit is awaited; the isolate's thread unwinds (every delivery
    // settles) first, and downloads and fetches still running are aborted.
    this.#abort.abort();
    const settled = Promise.allSettled([...this.#finishBeforeExit, ...this.#deliveries]);
    const grace = new Promise((resolve) => setTimeout(resolve, 2000).unref());
    Promise.race([settled, grace]).then(() => this.#finish(code));
  }

  #trace(direction: Direction, bytes: Uint8Array): void {
    if (this.options.debug) this.options.stderr(debugLine(direction, bytes));
  }
}

/** The main module's specifier, as the runtime asks for it: a bare file name is relative to cwd. */
function mainSpecifier(script: string): string {
  if (/^([a-z][a-z0-9+.-]*:|\/|\.\.?\/)/i.test(script)) return script;
  return `./${script}`;
}

/**
 * The folder whose tree the script may load modules from without --allow-read: the script's own
 * folder for a path or `file:` URL; none for a remote script, which gets no local files at all.
 */
function entryFolder(script: string, cwd: string): string | undefined {
  if (/^file:/i.test(script)) {
    try {
      return dirname(fileURLToPath(script));
    } catch {
      return undefined;
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(script)) return undefined;
  return dirname(resolve(cwd, script));
}

/** A value thrown in the isolate, as text: its (already source-mapped) stack without host frames. */
function formatThrown(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const stack = thrown.stack ?? `${thrown.name}: ${thrown.message}`;
  const lines = stack.split("\n");
  const boundary = lines.findIndex((line) => line.includes("<isolated-vm boundary>"));
  return (boundary === -1 ? lines : lines.slice(0, boundary)).join("\n");
}
