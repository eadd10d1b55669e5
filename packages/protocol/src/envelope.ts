import { create } from "@bufbuild/protobuf";
import { decodeBaseMsg, decodeMsg, encodeBaseMsg, encodeMsg } from "./codec.js";
import { BaseMsgSchema, type Msg } from "./gen/main/msg_pb.js";

/** A decoded message together with the channel it travelled on. */
export interface Envelope {
  readonly channel: string;
  readonly msg: Msg;
}

/** Wraps a Msg in a BaseMsg for a channel and encodes both: the bytes that cross the isolate boundary. */
export function encodeEnvelope(channel: string, msg: Msg): Uint8Array {
  return encodeBaseMsg(create(BaseMsgSchema, { channel, payload: encodeMsg(msg) }));
}

/** Decodes BaseMsg bytes and the Msg inside; throws {@link DecodeError} when either is malformed. */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  const base = decodeBaseMsg(bytes);
  return { channel: base.channel, msg: decodeMsg(base.payload) };
}
