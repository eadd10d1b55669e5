import { DecodeError } from "@kiln/protocol/wire";

/**
 * Frames of a batch read in place: a batch is frames one after another, each a BaseMsg prefixed
 * with its length as a varint (the protocol's framing, `encodeFrame`). The host and the runtime
 * take batches of thousands of small messages; reading them here costs no allocation per frame,
 * where FrameDecoder makes a view and a header object for each. The errors are FrameDecoder's
 * (the batch as one chunk, then the end of the stream), so a batch is refused alike either way.
 * Used by both sides, so it uses no built-in a script could replace.
 */

/** The frame {@link frameAt} found: its BaseMsg is `bytes[start..end)`. */
export const frame = { start: 0, end: 0 };

/**
 * Reads the frame at `at` of a batch that {@link checkFrames} accepted, into {@link frame};
 * returns the offset after it.
 */
export function frameAt(bytes: Uint8Array, at: number): number {
  let length = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[at++]!;
    length += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) break;
  }
  frame.start = at;
  frame.end = at + length;
  return frame.end;
}

/**
 * Where {@link checkFrames} last found the framing broken: the frame's offset in the batch and
 * where its prefix says it ends (its start when the prefix itself is bad). An end past the end of
 * the batch is a damaged prefix rather than a message that is really that large.
 */
export const broken = { start: 0, end: 0 };

/**
 * Checks the framing of a whole batch and returns how many frames it holds; throws the
 * DecodeError FrameDecoder would (prefix longer than 5 bytes, a frame over `maxFrameBytes`, the
 * batch ending inside a frame), after noting where in {@link broken}.
 */
export function checkFrames(bytes: Uint8Array, maxFrameBytes: number): number {
  let count = 0;
  let at = 0;
  while (at < bytes.length) {
    const frameStart = at;
    let length = 0;
    let scale = 1;
    let complete = false;
    for (let i = 0; i < 5; i++) {
      if (at >= bytes.length) break;
      const byte = bytes[at++]!;
      length += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) {
        complete = true;
        break;
      }
    }
    if (!complete) {
      broken.start = frameStart;
      broken.end = frameStart;
      if (at - frameStart >= 5)
        throw new DecodeError("malformed", "frame length prefix is longer than 5 bytes");
      throw truncated(bytes.length - frameStart);
    }
    if (length > maxFrameBytes) {
      broken.start = frameStart;
      broken.end = at + length;
      throw new DecodeError("frame-too-large", `frame of ${length} bytes exceeds ${maxFrameBytes}`);
    }
    if (bytes.length - at < length) {
      broken.start = frameStart;
      broken.end = at + length;
      throw truncated(bytes.length - frameStart);
    }
    at += length;
    count++;
  }
  return count;
}

function truncated(left: number): DecodeError {
  return new DecodeError("truncated", `stream ended inside a frame (${left} bytes left)`);
}
