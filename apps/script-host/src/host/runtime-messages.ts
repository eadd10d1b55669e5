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
import { broken, checkFrames, frame, frameAt } from "../shared/frames.js";
import { readTimerStart, timerStart } from "../shared/timer-frames.js";
import type { Direction } from "./debug-log.js";
import { errorText } from "./errors.js";
import type { HostFetcher } from "./fetcher.js";
import type { HostLimits } from "./limits.js";
import type { ModuleService } from "./modules/module-service.js";
import { MAX_REFUSALS_PER_BATCH, RefusalLog, type Refusals } from "./refusals.js";
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

  /** When the batch being handled arrived: the start time of every timer it starts. */
  #batchTime: number | undefined;

  /** What was refused over the run, for the note that closes it. */
  readonly refused = new RefusalLog();

  /**
   * A batch from `__kiln_send`: length-prefixed messages, handled in order; anything to say back
   * is delivered as a message. Called while the isolate waits, so it never throws into it. Each
   * call carries its own bytes, so a malformed message is refused alone and the run goes on: a
   * frame that does not decode is answered with ERROR, and a batch whose framing is broken is
   * refused whole (none of it is handled, as nothing in it can be told apart). Returns what was
   * refused ({@link Refusals}), so that the runtime fails the requests it made there. A batch or
   * message really over the size limits ends the run.
   */
  onSend(batch: Uint8Array): Refusals | undefined {
    const { maxBatchBytes, maxMessageBytes } = this.host.limits;
    if (!(batch instanceof Uint8Array)) return this.#refuseBatch("a batch must be bytes");
    if (batch.byteLength > maxBatchBytes) {
      this.host.fail(
        `error: the runtime sent ${batch.byteLength} bytes at once, more than ${maxBatchBytes}\n`,
      );
      return undefined;
    }
    let count: number;
    try {
      count = checkFrames(batch, maxMessageBytes);
    } catch (failure) {
      if (!(failure instanceof DecodeError)) throw failure;
      // A prefix that claims more bytes than the batch holds is damaged, whatever it claims.
      if (failure.code === "frame-too-large" && broken.end <= batch.byteLength) {
        this.host.fail(`error: the runtime sent a message larger than ${maxMessageBytes} bytes\n`);
        return undefined;
      }
      const reason =
        failure.code === "frame-too-large"
          ? `stream ended inside a frame (${batch.byteLength - broken.start} bytes left)`
          : failure.message;
      return this.#refuseBatch(reason);
    }
    const trace = this.host.debug;
    let refusals: Refusals | undefined;
    this.#batchTime = this.host.timers.clock();
    for (let at = 0, i = 0; i < count; i++) {
      at = frameAt(batch, at);
      // TIMER_START, sent by the thousand, is recognised from its bytes: the frames read here are
      // exactly those the full decoder and rejectMalformed accept as TIMER_START (see
      // timer-frames.ts); --debug traces every message, so it takes the full path.
      if (!trace && readTimerStart(batch, frame.start, frame.end)) {
        this.#startTimer(timerStart.id, timerStart.interval, timerStart.duration);
        continue;
      }
      const reason = this.#onMessage(batch.subarray(frame.start, frame.end));
      if (reason === undefined) continue;
      refusals ??= [];
      if (refusals.length / 2 === MAX_REFUSALS_PER_BATCH - 1 && i < count - 1) {
        const rest = `ProtocolError: more than ${MAX_REFUSALS_PER_BATCH} malformed messages in one batch`;
        this.refused.add(rest);
        this.host.deliver(Channel.os, errorMsg({ error: rest }));
        refusals.push(i, reason, -(i + 2), rest);
        break;
      }
      refusals.push(i, reason);
    }
    this.#batchTime = undefined;
    return refusals;
  }

  /** Refuses a whole batch with ERROR (on `os`) and tells the runtime so. */
  #refuseBatch(problem: string): Refusals {
    const reason = `ProtocolError: ${problem}`;
    this.refused.add(reason);
    this.host.deliver(Channel.os, errorMsg({ error: reason }));
    return [-1, reason];
  }

  #startTimer(id: number, interval: boolean, duration: number): void {
    try {
      this.host.timers.start(id, interval, duration, this.#batchTime);
    } catch (failure) {
      if (!(failure instanceof TooManyTimersError)) throw failure;
      this.host.fail(`error: ${failure.message}\n`);
    }
  }

  /** Handles one message of a batch; returns the reason when it was refused. */
  #onMessage(bytes: Uint8Array): string | undefined {
    const decoded = this.#decode(bytes);
    if (!("channel" in decoded)) {
      // A FETCH_REQ whose id can be read is answered on `fetch`, so that fetch() fails at once.
      this.host.deliver(decoded.fetchResId !== 0 ? Channel.fetch : Channel.os, decoded);
      return decoded.error;
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
      default: {
        const reason = `ProtocolError: ${Command[msg.command]} needs an answer; request it`;
        this.refused.add(reason);
        this.host.deliver(Channel.os, errorMsg({ error: reason }));
        return reason;
      }
    }
    return undefined;
  }

  /** A request from `__kiln_request`: resolves to the encoded answer. */
  async onRequest(bytes: Uint8Array): Promise<Uint8Array> {
    const decoded: Envelope | Msg = !(bytes instanceof Uint8Array)
      ? this.#refuse("ProtocolError: a request must be bytes")
      : bytes.byteLength > this.host.limits.maxMessageBytes
        ? this.#refuse(`ProtocolError: a request of ${bytes.byteLength} bytes is over the limit`)
        : this.#decode(bytes);
    let answer: Msg;
    if (!("channel" in decoded)) {
      // The answer to this call is the answer to the request, whatever the request was.
      answer = errorMsg({ error: decoded.error });
    } else if (decoded.msg.command === Command.CODE_FETCH) {
      const { codeFetchModuleSpecifier, codeFetchContainingFile } = decoded.msg;
      answer = await this.host.modules
        .codeFetch(codeFetchModuleSpecifier, codeFetchContainingFile)
        .catch((failure) => errorMsg({ error: errorText(failure) }));
    } else {
      answer = this.#refuse(`ProtocolError: ${Command[decoded.msg.command]} is not a request`);
    }
    const reply = encodeEnvelope(Channel.os, answer);
    this.host.trace("host->runtime", reply);
    return reply;
  }

  /**
   * The decoded message, or the ERROR that answers it when it is malformed (carrying the
   * FETCH_REQ's id when it is one whose id can be read).
   */
  #decode(bytes: Uint8Array): Envelope | Msg {
    this.host.trace("runtime->host", bytes);
    let envelope: Envelope;
    try {
      envelope = decodeEnvelope(bytes);
    } catch (failure) {
      if (!(failure instanceof DecodeError)) throw failure;
      return this.#refuse(`ProtocolError: ${failure.message}`);
    }
    const rejection = rejectMalformed(envelope);
    if (rejection === undefined) return envelope;
    const { msg } = envelope;
    const fetchId = msg.command === Command.FETCH_REQ ? msg.fetchReqId : 0;
    return this.#refuse(rejection.error, fetchId);
  }

  #refuse(reason: string, fetchResId = 0): Msg {
    this.refused.add(reason);
    return errorMsg({ error: reason, fetchResId });
  }
}
