export { Channel, channelOf, isChannel } from "./channel.js";
export { decodeBaseMsg, decodeMsg, encodeBaseMsg, encodeMsg } from "./codec.js";
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
} from "./commands.js";
export { commandName, describeMsg } from "./describe.js";
export { decodeEnvelope, type Envelope, encodeEnvelope } from "./envelope.js";
export { DecodeError, type DecodeErrorCode } from "./errors.js";
export { DEFAULT_MAX_FRAME_BYTES, encodeFrame, FrameDecoder, readFrames } from "./framing.js";
export { type BaseMsg, BaseMsgSchema, Command, type Msg, MsgSchema } from "./gen/main/msg_pb.js";
export { fieldsByCommand, type ValidationProblem, validate } from "./validate.js";
