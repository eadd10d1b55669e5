import {
  Channel,
  Command,
  DecodeError,
  decodeEnvelope,
  encodeEnvelope,
  encodeEnvelopeFrame,
  error,
  type Msg,
  timerStart as timerStartMsg,
} from "@kiln/protocol/wire";
import { checkFrames, frame, frameAt } from "../src/shared/frames.js";
import {
  isTimerId,
  readTimerReady,
  timerReady,
  timerStartFrameSize,
  writeTimerStart,
} from "../src/shared/timer-frames.js";
import { requestBytes, sendBytes } from "./bindings.js";
import { errorFromText } from "./errors/from-text.js";

// Taken before any script runs: a script that replaces these cannot delay or reorder messages.
const NativePromise = Promise;
const resolved = NativePromise.resolve();
const then = NativePromise.prototype.then;
const apply = Reflect.apply;

/** A batch flushes early once it holds this many bytes. */
const FLUSH_BYTES = 256 * 1024;

/** The frames queued for the next batch, written one after another. */
let queue = new Uint8Array(4096);
let queuedBytes = 0;
let queuedFrames = 0;
let scheduled = false;

/** What fails a request queued in the batch (by frame index) if the host refuses its message. */
type OnRefused = (reason: string) => void;
let onRefused: OnRefused[] = [];
let anyOnRefused = false;

/**
 * Sends everything queued as one batch: the frames one after another, each a BaseMsg prefixed
 * with its length. One crossing of the isolate boundary carries all the messages a burst of
 * script code produced (10,000 setTimeout calls in a loop are one call into the host). The host
 * answers the call with the messages it refused, if any (a script that tampered with built-ins
 * can make the encoder write garbage): the requests made in them fail with the host's reason.
 */
export function flush(): void {
  scheduled = false;
  if (queuedBytes === 0) return;
  const batch = queue.slice(0, queuedBytes);
  const frames = queuedFrames;
  const handlers = onRefused;
  queuedBytes = 0;
  queuedFrames = 0;
  if (anyOnRefused) {
    onRefused = [];
    anyOnRefused = false;
  }
  const refused = sendBytes(batch);
  if (refused !== undefined) failRefused(refused as Refusals, handlers, frames);
}

/** Pairs of frame index and reason; a negative index `-(i + 1)` is frame i and all after it. */
type Refusals = (number | string)[];

function failRefused(refused: Refusals, handlers: OnRefused[], frames: number): void {
  for (let i = 0; i + 1 < refused.length; i += 2) {
    const index = refused[i];
    const reason = String(refused[i + 1]);
    if (typeof index !== "number") continue;
    if (index >= 0) handlers[index]?.(reason);
    else for (let j = -index - 1; j < frames; j++) handlers[j]?.(reason);
  }
}

/** Room for `bytes` more bytes in the queue. */
function reserve(bytes: number): void {
  if (queuedBytes + bytes <= queue.length) return;
  let size = queue.length * 2;
  while (size < queuedBytes + bytes) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(queue.subarray(0, queuedBytes));
  queue = grown;
}

/** A frame was queued: the batch leaves at the next microtask, or now once it is large. */
function queued(): void {
  if (queuedBytes >= FLUSH_BYTES) flush();
  else if (!scheduled) {
    scheduled = true;
    apply(then, resolved, [flush]);
  }
}

/**
 * Queues a message to the host on a channel; it leaves with the batch at the next microtask.
 * `refused` is called with the host's reason if the host refuses the message.
 */
export function send(channel: string, msg: Msg, refused?: OnRefused): void {
  const frame = encodeEnvelopeFrame(channel, msg);
  reserve(frame.byteLength);
  queue.set(frame, queuedBytes);
  queuedBytes += frame.byteLength;
  if (refused !== undefined) {
    onRefused[queuedFrames] = refused;
    anyOnRefused = true;
  }
  queuedFrames++;
  queued();
}

/**
 * Queues TIMER_START for a timer, as {@link send} would, but written straight into the batch:
 * setTimeout is called by the thousand, and building a Msg for each costs more than the timer.
 */
export function sendTimerStart(id: number, interval: boolean, duration: number): void {
  if (!isTimerId(id) || !(duration === 0 || isTimerId(duration))) {
    send(Channel.timers, timerStartMsg({ id, interval, duration }));
    return;
  }
  reserve(timerStartFrameSize(id, interval, duration));
  queuedBytes = writeTimerStart(queue, queuedBytes, id, interval, duration);
  queuedFrames++;
  queued();
}

let timerReadyHandler: ((id: number, done: boolean) => unknown) | undefined;

/**
 * Handles TIMER_READY without decoding a Msg: the common frame is recognised from its bytes and
 * handed here; any other form still goes to the `timers` channel's handler.
 */
export function onTimerReady(handler: (id: number, done: boolean) => unknown): void {
  timerReadyHandler = handler;
}

/**
 * Sends a request on the `os` channel and returns the host's answer, after everything queued
 * before it. An ERROR answer is thrown as an Error named after its kind ("NotFound: …" becomes an
 * Error named NotFound).
 */
export function request(msg: Msg): Msg {
  flush();
  const answer = decodeEnvelope(requestBytes(encodeEnvelope(Channel.os, msg))).msg;
  if (answer.command === Command.ERROR) throw errorFromText(answer.error);
  return answer;
}

/** A handler for the messages of one channel. */
export type ChannelHandler = (msg: Msg) => unknown;

const handlers = new Map<string, ChannelHandler>();

/** Registers the handler of a channel (one per channel). */
export function onChannel(channel: string, handler: ChannelHandler): void {
  handlers.set(channel, handler);
}

/**
 * Receives one message (`bytes[start..end)`) from the host and hands it to its channel's handler.
 * Returns the handler's result for START (the main module's evaluation) and nothing otherwise.
 */
function receiveOne(bytes: Uint8Array, start: number, end: number): unknown {
  if (timerReadyHandler !== undefined && readTimerReady(bytes, start, end)) {
    timerReadyHandler(timerReady.id, timerReady.done);
    return undefined;
  }
  let channel: string;
  let msg: Msg;
  try {
    ({ channel, msg } = decodeEnvelope(bytes.subarray(start, end)));
  } catch (failure) {
    if (!(failure instanceof DecodeError)) throw failure;
    send(Channel.os, error({ error: `ProtocolError: ${failure.message}` }));
    return undefined;
  }
  const handler = handlers.get(channel);
  if (!handler) {
    send(Channel.os, error({ error: `ProtocolError: the runtime does not listen on channel "${channel}"` }));
    return undefined;
  }
  const result = handler(msg);
  return channel === Channel.start ? result : undefined;
}

/** The current batch, its next frame's offset and how many of its frames are not handled yet. */
let pendingBatch: Uint8Array = new Uint8Array(0);
let pendingAt = 0;
let pendingLeft = 0;
/** The largest frame taken from the host (FrameDecoder's default). */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/**
 * Receives from the host: a batch (frames, each one BaseMsg), or nothing, which means "handle the
 * next message of the batch". Each message is handled in a task of its own, so that the microtasks
 * a message's handler queued (a promise resolved in a timer callback) all run before the next
 * message, as in Node and Deno, and a promise rejection nobody handled by then fails that task:
 * - the host calls with the batch, and the first message is handled in that call;
 * - the runtime calls itself (`next`: the boot code's entry, through isolated-vm, as a new task
 *   of this isolate) once for each further message, each call once the one before has settled,
 *   and returns a promise that settles when they all have: rejected with the first failure, such
 *   as an unhandled rejection, after which no further message is handled (Node exits there too).
 * The host's thread takes no part in the messages after the first (one call from the host per
 * batch instead of one per message: this is what keeps 10,000 timers cheap).
 *
 * A batch whose framing is broken is answered with ERROR on the `os` channel and none of it is
 * handled; bytes that do not decode, or a channel nobody handles, are answered the same way and
 * otherwise ignored. Returns START's evaluation for START, the promise above for a batch of
 * several messages, and nothing otherwise.
 */
export function receive(
  batch: Uint8Array | undefined,
  onError: (thrown: unknown) => void,
  next: () => Promise<unknown>,
): unknown {
  if (batch === undefined) return handleNext(onError);
  try {
    pendingLeft = checkFrames(batch, MAX_FRAME_BYTES);
    pendingBatch = batch;
    pendingAt = 0;
  } catch (failure) {
    if (!(failure instanceof DecodeError)) throw failure;
    pendingLeft = 0;
    send(Channel.os, error({ error: `ProtocolError: ${failure.message}` }));
    return undefined;
  }
  const result = handleNext(onError);
  return pendingLeft > 0 ? handleRest(pendingLeft, next) : result;
}

/** Handles the next message of the current batch (if any is left) and returns what it returned. */
function handleNext(onError: (thrown: unknown) => void): unknown {
  if (pendingLeft === 0) return undefined;
  const bytes = pendingBatch;
  pendingAt = frameAt(bytes, pendingAt);
  const { start, end } = frame;
  if (--pendingLeft === 0) pendingBatch = EMPTY;
  try {
    return receiveOne(bytes, start, end);
  } catch (thrown) {
    return onError(thrown);
  }
}

/**
 * Handles the `count` messages left in the batch through self-calls, one after the other; the
 * promise settles once all have, or at the first failure.
 */
function handleRest(count: number, next: () => Promise<unknown>): Promise<void> {
  let settled = 0;
  return new NativePromise<void>((resolve, reject) => {
    const done = () => {
      if (++settled === count) resolve();
      else apply(then, next(), [done, reject]);
    };
    apply(then, next(), [done, reject]);
  });
}

const EMPTY = new Uint8Array(0);
