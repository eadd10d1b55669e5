import {
  Channel,
  Command,
  DecodeError,
  decodeEnvelope,
  type Envelope,
  encodeEnvelope,
  error as errorMsg,
  type Msg,
  start,
  timerReady,
} from "@kiln/protocol";
import { debugLine } from "./debug-log.js";
import { rejectMalformed } from "./dispatch.js";
import { errorText } from "./errors.js";
import { HostFetcher } from "./fetcher.js";
import { IsolateBridge } from "./isolate-bridge.js";
import { CompileCache } from "./modules/compile-cache.js";
import { ModuleService } from "./modules/module-service.js";
import { RemoteModules } from "./modules/remote-cache.js";
import { loadRuntimeBundle, type RuntimeBundle } from "./runtime-bundle.js";
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
  #modules: ModuleService | undefined;
  readonly #cacheWrites = new Set<Promise<void>>();
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
    this.#modules = new ModuleService(
      new CompileCache(this.options.cacheDir, bundle.id),
      new RemoteModules(this.options.cacheDir, this.options.reload, log, this.#abort.signal),
    );
    this.#bridge = await IsolateBridge.create(this.options.memoryLimitMb, {
      send: (bytes) => this.#onSend(bytes),
      request: (bytes) => this.#onRequest(bytes),
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

  #decode(bytes: Uint8Array): Envelope | Msg {
    this.#trace("runtime->host", bytes);
    let envelope: Envelope;
    try {
      envelope = decodeEnvelope(bytes);
    } catch (failure) {
      if (!(failure instanceof DecodeError)) throw failure;
      return errorMsg({ error: `ProtocolError: ${failure.message}` });
    }
    return rejectMalformed(envelope) ?? envelope;
  }

  #onSend(bytes: Uint8Array): void {
    if (this.#finished) return;
    const decoded = this.#decode(bytes);
    if (!("channel" in decoded)) {
      this.#deliver(Channel.os, decoded);
      return;
    }
    const { channel, msg } = decoded;
    switch (msg.command) {
      case Command.TIMER_START:
        this.#timers.start(msg.timerStartId, msg.timerStartInterval, msg.timerStartDuration);
        break;
      case Command.TIMER_CLEAR:
        this.#timers.clear(msg.timerClearId);
        this.#checkIdle();
        break;
      case Command.FETCH_REQ:
        this.#track(
          this.#fetcher
            .fetch(msg.fetchReqId, msg.fetchReqUrl)
            .then((res) => this.#deliver(Channel.fetch, res)),
        );
        break;
      case Command.CODE_CACHE:
        this.#track(
          this.#modules!.codeCache(
            msg.codeCacheFilename,
            msg.codeCacheSourceCode,
            msg.codeCacheOutputCode,
          ).catch((failure) => this.#deliver(Channel.os, errorMsg({ error: errorText(failure) }))),
        );
        break;
      case Command.EXIT:
        this.#end(msg.exitCode);
        break;
      case Command.ERROR:
        this.options.stderr(
          `kiln-run: the runtime reported a protocol error on "${channel}": ${msg.error}\n`,
        );
        break;
      default:
        this.#deliver(
          channel,
          errorMsg({ error: `ProtocolError: ${Command[msg.command]} needs an answer; request it` }),
        );
    }
  }

  async #onRequest(bytes: Uint8Array): Promise<Uint8Array> {
    const decoded = this.#decode(bytes);
    let answer: Msg;
    if (!("channel" in decoded)) {
      answer = decoded;
    } else if (decoded.msg.command === Command.CODE_FETCH) {
      const { codeFetchModuleSpecifier, codeFetchContainingFile } = decoded.msg;
      answer = await this.#modules!.codeFetch(codeFetchModuleSpecifier, codeFetchContainingFile).catch(
        (failure) => errorMsg({ error: errorText(failure) }),
      );
    } else {
      answer = errorMsg({ error: `ProtocolError: ${Command[decoded.msg.command]} is not a request` });
    }
    const reply = encodeEnvelope(Channel.os, answer);
    this.#trace("host->runtime", reply);
    return reply;
  }

  #watch(delivery: Promise<void>): Promise<void> {
    this.#deliveries.add(delivery);
    const forget = () => this.#deliveries.delete(delivery);
    delivery.then(forget, forget);
    return delivery;
  }

  #track(operation: Promise<unknown>): void {
    this.#inFlight++;
    operation.finally(() => {
      this.#inFlight--;
      this.#checkIdle();
    });
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
    const settled = Promise.allSettled([...this.#cacheWrites, ...this.#deliveries]);
    const grace = new Promise((resolve) => setTimeout(resolve, 2000).unref());
    Promise.race([settled, grace]).then(() => this.#finish(code));
  }

  #trace(direction: "host->runtime" | "runtime->host", bytes: Uint8Array): void {
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
