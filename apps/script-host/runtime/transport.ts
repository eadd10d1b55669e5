import {
  Channel,
  Command,
  DecodeError,
  decodeEnvelope,
  encodeEnvelope,
  error,
  type Msg,
} from "@kiln/protocol";
import { requestBytes, sendBytes } from "./bindings.js";
import { errorFromText } from "./errors/from-text.js";

/** Sends a message to the host on a channel, without waiting for an answer. */
export function send(channel: string, msg: Msg): void {
  sendBytes(encodeEnvelope(channel, msg));
}

/**
 * Sends a request on the `os` channel and returns the host's answer. An ERROR answer is thrown
 * as an Error named after its kind ("NotFound: …" becomes an Error named NotFound).
 */
export function request(msg: Msg): Msg {
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
 * Receives one message from the host. Bytes that do not decode, or a channel nobody handles, are
 * answered with ERROR on the `os` channel (or the message's channel) and otherwise ignored.
 */
export function receive(bytes: Uint8Array): unknown {
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
