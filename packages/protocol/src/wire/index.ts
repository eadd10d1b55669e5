/**
 * The protocol without protobuf-es's reflection: the specialised codec, the command
 * constructors, channels and framing. The script runtime imports only this entry, so the isolate
 * never loads or initialises protobuf-es (about 24 ms of every start-up there).
 */
export { Channel } from "../channel.js";
export {
  codeCache,
  codeFetch,
  codeFetchRes,
  error,
  exit,
  fetchReq,
  fetchRes,
  start,
  timerClear,
  timerReady,
  timerStart,
} from "../commands.js";
export { commandName, describeMsg } from "../describe.js";
export type { Envelope } from "../envelope.js";
export { DecodeError, type DecodeErrorCode } from "../errors.js";
export { encodeFrame, FrameDecoder } from "../framing.js";
export { Command, type Msg } from "../gen/main/msg_pb.js";
export { fieldsByCommand, type ValidationProblem, validate } from "../validate.js";
export { decodeEnvelope } from "./decode-lean.js";
export { MSG_FIELDS, type WireField } from "./fields.js";
export {
  decodeEnvelopeWire,
  decodeMsgWire,
  encodeEnvelope,
  encodeEnvelopeFrame,
  encodeMsg,
  type MsgInit,
  newMsg,
} from "./wire-msg.js";
