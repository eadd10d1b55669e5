import {
  Channel,
  Command,
  DecodeError,
  decodeEnvelope,
  type Envelope,
  encodeEnvelope,
  error as errorMsg,
  type Msg,
} from "@kiln/protocol/wire";
import { checkFrames, frame, frameAt } from "../shared/frames.js";
import { readTimerStart, timerStart } from "../shared/timer-frames.js";
import type { Direction } from "./debug-log.js";
import { errorText } from "./errors.js";
import type { HostFetcher } from "./fetcher.js";
import type { HostLimits } from "./limits.js";
import type { ModuleService } from "./modules/module-service.js";
import { rejectMalformed } from "./reject-malformed.js";
import { type HostTimers, TooManyTimersError } from "./timers.js";

/** What answering the runtime needs from the host that runs it. */
export interface HostContext {
  readonly timers: HostTimers;
  readonly fetcher: HostFetcher;
  readonly modules: ModuleService;
  /** Sends a message to the runtime. */
  deliver(channel: string, msg: Msg): void;
  /** Counts host work as pending until it settles; `beforeExit` work is also finished on exit. */
  track(work: Promise<unknown>, options?: { beforeExit?: boolean }): void;
  /** Ends the run with this exit code (EXIT). */
  exit(code: number): void;
  /** Something pending has gone away (a cleared timer): the run may be over. */
  checkIdle(): void;
  /** Logs a message crossing the boundary (--debug). */
  trace(direction: Direction, bytes: Uint8Array): void;
  /** Whether messages are traced (--debug): then every message takes the full path. */
  readonly debug: boolean;
  /** Prints a diagnostic to stderr. */
  warn(text: string): void;
  /** Ends the run with exit code 1 and this message: the script passed a host limit. */
  fail(text: string): void;
  readonly limits: HostLimits;
}

/**
 * The host's side of the protocol: decodes what the runtime sends, refuses malformed messages
 * with ERROR (on `os`), and carries out the rest — timers, fetches, the compile cache, exit —
 * and answers requests (CODE_FETCH).
 */
export class RuntimeMessages {
  constructor(private readonly host: HostContext) {}

  /**
   * A batch from `__kiln_send`: length-prefixed messages, handled in order; anything to say back
   * is delivered as a message. Called while the isolate waits, so it never throws into it: a batch
   * or message over the size limits ends the run.
   */
  onSend(batch: Uint8Array): void {
    const { maxBatchBytes, maxMessageBytes } = this.host.limits;
    if (!(batch instanceof Uint8Array)) {
      this.host.fail("error: the runtime sent something that is not bytes\n");
      return;
    }
    if (batch.byteLength > maxBatchBytes) {
      this.host.fail(
        `error: the runtime sent ${batch.byteLength} bytes at once, more than ${maxBatchBytes}\n`,
      );
      return;
    }
    let count: number;
    try {
      count = checkFrames(batch, maxMessageBytes);
    } catch (failure) {
      if (!(failure instanceof DecodeError)) throw failure;
      if (failure.code === "frame-too-large") {
        this.host.fail(`error: the runtime sent a message larger than ${maxMessageBytes} bytes\n`);
        return;
      }
      this.host.deliver(Channel.os, errorMsg({ error: `ProtocolError: ${failure.message}` }));
      return;
    }
    const trace = this.host.debug;
    for (let at = 0, i = 0; i < count; i++) {
      at = frameAt(batch, at);
      // TIMER_START, sent by the thousand, is recognised from its bytes: the frames read here are
      // exactly those the full decoder and rejectMalformed accept as TIMER_START (see
      // timer-frames.ts); --debug traces every message, so it takes the full path.
      if (!trace && readTimerStart(batch, frame.start, frame.end)) {
        this.#startTimer(timerStart.id, timerStart.interval, timerStart.duration);
      } else {
        this.#onMessage(batch.subarray(frame.start, frame.end));
      }
    }
  }

  #startTimer(id: number, interval: boolean, duration: number): void {
    try {
      this.host.timers.start(id, interval, duration);
    } catch (failure) {
      if (!(failure instanceof TooManyTimersError)) throw failure;
      this.host.fail(`error: ${failure.message}\n`);
    }
  }

  #onMessage(bytes: Uint8Array): void {
    const decoded = this.#decode(bytes);
    if (!("channel" in decoded)) {
      this.host.deliver(Channel.os, decoded);
      return;
    }
    const { channel, msg } = decoded;
    switch (msg.command) {
      case Command.TIMER_START:
        this.#startTimer(msg.timerStartId, msg.timerStartInterval, msg.timerStartDuration);
        break;
      case Command.TIMER_CLEAR:
        this.host.timers.clear(msg.timerClearId);
        this.host.checkIdle();
        break;
      case Command.FETCH_REQ:
        this.host.track(
          this.host.fetcher
            .fetch(msg.fetchReqId, msg.fetchReqUrl)
            .then((res) => this.host.deliver(Channel.fetch, res)),
        );
        break;
      case Command.CODE_CACHE:
        // The host compiles every module itself and caches only its own output, so that no run
        // can change what another run executes: output sent by a runtime is never stored.
        break;
      case Command.EXIT:
        this.host.exit(msg.exitCode);
        break;
      case Command.ERROR:
        this.host.warn(`kiln-run: the runtime reported a protocol error on "${channel}": ${msg.error}\n`);
        break;
      default:
        this.host.deliver(
          Channel.os,
          errorMsg({ error: `ProtocolError: ${Command[msg.command]} needs an answer; request it` }),
        );
    }
  }

  /** A request from `__kiln_request`: resolves to the encoded answer. */
  async onRequest(bytes: Uint8Array): Promise<Uint8Array> {
    const decoded: Envelope | Msg = !(bytes instanceof Uint8Array)
      ? errorMsg({ error: "ProtocolError: a request must be bytes" })
      : bytes.byteLength > this.host.limits.maxMessageBytes
        ? errorMsg({ error: `ProtocolError: a request of ${bytes.byteLength} bytes is over the limit` })
        : this.#decode(bytes);
    let answer: Msg;
    if (!("channel" in decoded)) {
      answer = decoded;
    } else if (decoded.msg.command === Command.CODE_FETCH) {
      const { codeFetchModuleSpecifier, codeFetchContainingFile } = decoded.msg;
      answer = await this.host.modules
        .codeFetch(codeFetchModuleSpecifier, codeFetchContainingFile)
        .catch((failure) => errorMsg({ error: errorText(failure) }));
    } else {
      answer = errorMsg({ error: `ProtocolError: ${Command[decoded.msg.command]} is not a request` });
    }
    const reply = encodeEnvelope(Channel.os, answer);
    this.host.trace("host->runtime", reply);
    return reply;
  }

  /** The decoded message, or the ERROR that answers it when it is malformed. */
  #decode(bytes: Uint8Array): Envelope | Msg {
    this.host.trace("runtime->host", bytes);
    let envelope: Envelope;
    try {
      envelope = decodeEnvelope(bytes);
    } catch (failure) {
      if (!(failure instanceof DecodeError)) throw failure;
      return errorMsg({ error: `ProtocolError: ${failure.message}` });
    }
    return rejectMalformed(envelope) ?? envelope;
  }
}
