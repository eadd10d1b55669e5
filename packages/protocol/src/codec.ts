import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { DecodeError } from "./errors.js";
import { type BaseMsg, BaseMsgSchema, type Msg, MsgSchema } from "./gen/main/msg_pb.js";

function decodeWith<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const truncated = /premature EOF|out of range|incomplete/i.test(reason);
    throw new DecodeError(truncated ? "truncated" : "malformed", `cannot decode ${what}: ${reason}`, {
      cause,
    });
  }
}

/** Encodes a BaseMsg envelope to its protobuf bytes. Unknown fields it carries are written back. */
export function encodeBaseMsg(message: BaseMsg): Uint8Array {
  return toBinary(BaseMsgSchema, message);
}

/** Decodes a BaseMsg envelope; throws {@link DecodeError} on garbage or truncated bytes. */
export function decodeBaseMsg(bytes: Uint8Array): BaseMsg {
  return decodeWith("BaseMsg", () => fromBinary(BaseMsgSchema, bytes));
}

/** Encodes a Msg to its protobuf bytes (proto3: fields at their zero value are omitted). */
export function encodeMsg(message: Msg): Uint8Array {
  return toBinary(MsgSchema, message);
}

/** Decodes a Msg; throws {@link DecodeError} on garbage or truncated bytes. Unknown fields are kept. */
export function decodeMsg(bytes: Uint8Array): Msg {
  return decodeWith("Msg", () => fromBinary(MsgSchema, bytes));
}
