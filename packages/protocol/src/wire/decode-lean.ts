import type { Msg } from "../gen/main/msg_pb.js";
import { decodeEnvelopeWire } from "./wire-msg.js";

/** Decodes BaseMsg bytes and the Msg inside, skipping unknown fields (proto3's rule). */
export function decodeEnvelope(bytes: Uint8Array): { channel: string; msg: Msg } {
  const { channel, msg } = decodeEnvelopeWire(bytes);
  return { channel, msg };
}
