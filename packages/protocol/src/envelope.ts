import { decodeBaseMsg, decodeMsg } from "./codec.js";
import type { Msg } from "./gen/main/msg_pb.js";
import { decodeEnvelopeWire, encodeEnvelope as encodeEnvelopeWire } from "./wire/wire-msg.js";

/** A decoded message together with the channel it travelled on. */
export interface Envelope {
  readonly channel: string;
  readonly msg: Msg;
}

/** Wraps a Msg in a BaseMsg for a channel and encodes both: the bytes that cross the isolate boundary. */
export function encodeEnvelope(channel: string, msg: Msg): Uint8Array {
  return encodeEnvelopeWire(channel, msg);
}

/**
 * Decodes BaseMsg bytes and the Msg inside; throws {@link DecodeError} when either is malformed.
 * The specialised codec reads them; a message with unknown fields is read again by protobuf-es,
 * which keeps them in `$unknown` (for `--debug` logs and re-encoding).
 */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  const decoded = decodeEnvelopeWire(bytes);
  if (!decoded.sawUnknown) return { channel: decoded.channel, msg: decoded.msg };
  const base = decodeBaseMsg(bytes);
  return { channel: base.channel, msg: decodeMsg(base.payload) };
}
