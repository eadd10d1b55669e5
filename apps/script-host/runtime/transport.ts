import {
  Channel,
  Command,
  DecodeError,
  decodeEnvelope,
  encodeEnvelope,
  encodeEnvelopeFrame,
  error,
  FrameDecoder,
  type Msg,
  timerStart as timerStartMsg,
} from "@kiln/protocol/wire";
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
let scheduled = false;

/**
 * Sends everything queued as one batch: the frames one after another, each a BaseMsg prefixed
 * with its length. One crossing of the isolate boundary carries all the messages a burst of
 * script code produced (10,000 setTimeout calls in a loop are one call into the host).
 */
export function flush(): void {
  scheduled = false;
  if (queuedBytes === 0) return;
  const batch = queue.slice(0, queuedBytes);
  queuedBytes = 0;
  sendBytes(batch);
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

/** Queues a message to the host on a channel; it leaves with the batch at the next microtask. */
export function send(channel: string, msg: Msg): void {
  const frame = encodeEnvelopeFrame(channel, msg);
  reserve(frame.byteLength);
  queue.set(frame, queuedBytes);
  queuedBytes += frame.byteLength;
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

/** Receives one message from the host and hands it to its channel's handler. */
function receiveOne(bytes: Uint8Array): unknown {
  if (timerReadyHandler !== undefined && readTimerReady(bytes)) {
    return timerReadyHandler(timerReady.id, timerReady.done);
  }
  let channel: string;
  let msg: Msg;
  try {
    ({ channel, msg } = decodeEnvelope(bytes));
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
  return handler(msg);
}

/** Messages of the current batch not handled yet, oldest first. */
let pending: Uint8Array[] = [];
let next = 0;

/**
 * Receives from the host: a batch (frames, each one BaseMsg), or nothing, which means "handle the
 * next message of the batch". The host calls once with the batch and once more, without
 * arguments, for each further message in it, so each message is handled in a call of its own:
 * V8 runs the microtasks at the end of every call, and a promise resolved in one timer callback
 * settles before the next callback runs, as in Node and Deno (one call carries the bytes; the
 * others carry none and cost little). Bytes that do not decode, or a channel nobody handles, are
 * answered with ERROR on the `os` channel and otherwise ignored. Returns what the message's
 * handler returned (START's: the main module's evaluation).
 */
export function receive(batch: Uint8Array | undefined, onError: (thrown: unknown) => void): unknown {
  if (batch !== undefined) {
    try {
      const decoder = new FrameDecoder();
      pending = decoder.push(batch);
      next = 0;
      decoder.end();
    } catch (failure) {
      if (!(failure instanceof DecodeError)) throw failure;
      send(Channel.os, error({ error: `ProtocolError: ${failure.message}` }));
      return undefined;
    }
  }
  const frame = pending[next];
  if (frame === undefined) return undefined;
  pending[next++] = EMPTY;
  try {
    return receiveOne(frame);
  } catch (thrown) {
    return onError(thrown);
  }
}

const EMPTY = new Uint8Array(0);
