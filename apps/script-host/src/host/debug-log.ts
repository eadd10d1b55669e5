import { decodeEnvelopeWire, describeMsg } from "@kiln/protocol/wire";

/** Which way a message crossed the isolate boundary. */
export type Direction = "host->runtime" | "runtime->host";

/**
 * The `--debug` line for one message: direction, channel and the decoded command with its set
 * fields (and a note when it carried fields the protocol does not define), or the decode failure
 * for bytes that are not a valid BaseMsg.
 */
export function debugLine(direction: Direction, bytes: Uint8Array): string {
  try {
    const { channel, msg, sawUnknown } = decodeEnvelopeWire(bytes);
    return `[debug] ${direction} [${channel}] ${describeMsg(msg)}${sawUnknown ? " <unknown fields>" : ""}\n`;
  } catch (error) {
    return `[debug] ${direction} <${bytes.byteLength} undecodable bytes: ${(error as Error).message}>\n`;
  }
}
