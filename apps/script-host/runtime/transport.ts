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
} from "@kiln/protocol/wire";
import { requestBytes, sendBytes } from "./bindings.js";
import { errorFromText } from "./errors/from-text.js";

// Taken before any script runs: a script that replaces these cannot delay or reorder messages.
const NativePromise = Promise;
const resolved = NativePromise.resolve();
const then = NativePromise.prototype.then;
const apply = Reflect.apply;

/** A batch flushes early once it holds this many bytes. */
const FLUSH_BYTES = 256 * 1024;

let queue: Uint8Array[] = [];
let queuedBytes = 0;
let scheduled = false;

/**
 * Sends everything queued as one batch: the frames one after another, each a BaseMsg prefixed
 * with its length. One crossing of the isolate boundary carries all the messages a burst of
 * script code produced (10,000 setTimeout calls in a loop are one call into the host).
 */
export function flush(): void {
  scheduled = false;
  if (queue.length === 0) return;
  const batch = new Uint8Array(queuedBytes);
  let offset = 0;
  for (const frame of queue) {
    batch.set(frame, offset);
    offset += frame.byteLength;
  }
  queue = [];
  queuedBytes = 0;
  sendBytes(batch);
}

/** Queues a message to the host on a channel; it leaves with the batch at the next microtask. */
export function send(channel: string, msg: Msg): void {
  const frame = encodeEnvelopeFrame(channel, msg);
  queue.push(frame);
  queuedBytes += frame.byteLength;
  if (queuedBytes >= FLUSH_BYTES) flush();
  else if (!scheduled) {
    scheduled = true;
    apply(then, resolved, [flush]);
  }
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
