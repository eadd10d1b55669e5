import { decodeEnvelope, describeMsg } from "@kiln/protocol";

/** Which way a message crossed the isolate boundary. */
export type Direction = "host->runtime" | "runtime->host";

/**
 * The `--debug` line for one message: direction, channel and the decoded command with its set
 * fields, or the decode failure for bytes that are not a valid BaseMsg.
 */
export function debugLine(direction: Direction, bytes: Uint8Array): string {
  try {
    const { channel, msg } = decodeEnvelope(bytes);
    return `[debug] ${direction} [${channel}] ${describeMsg(msg)}\n`;
  } catch (error) {
    return `[debug] ${direction} <${bytes.byteLength} undecodable bytes: ${(error as Error).message}>\n`;
  }
}
