import { DecodeError, encodeFrame, FrameDecoder } from "@kiln/protocol/wire";
import { describe, expect, it } from "vitest";
import { checkFrames, frame, frameAt } from "./frames.js";

/** What FrameDecoder makes of a batch given as one chunk: where its frames are, or the error. */
function reference(bytes: Uint8Array, max: number): number[][] | string {
  try {
    const decoder = new FrameDecoder(max);
    // Its frames are views of its own copy of the chunk, at the same offsets.
    const frames = decoder.push(bytes).map((view) => [view.byteOffset, view.byteLength]);
    decoder.end();
    return frames;
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

function inPlace(bytes: Uint8Array, max: number): number[][] | string {
  let count: number;
  try {
    count = checkFrames(bytes, max);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return `${error.code}: ${error.message}`;
  }
  const frames: number[][] = [];
  for (let at = 0, i = 0; i < count; i++) {
    at = frameAt(bytes, at);
    frames.push([frame.start, frame.end - frame.start]);
  }
  return frames;
}

describe("frames read in place", () => {
  it("are FrameDecoder's frames, and its errors, for well-formed and damaged batches", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 3000; i++) {
      const parts: Uint8Array[] = [];
      for (let n = random() % 6; n > 0; n--) {
        const size = [0, 1, 5, 127, 128, 300, 20_000][random() % 7]!;
        parts.push(encodeFrame(new Uint8Array(size).fill(random() & 0xff)));
      }
      const batch = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) {
        batch.set(part, at);
        at += part.length;
      }
      let bytes = batch;
      const damage = random() % 4;
      if (damage === 1 && bytes.length > 0) bytes = bytes.subarray(0, random() % bytes.length);
      if (damage === 2 && bytes.length > 0) bytes[random() % bytes.length] = random() & 0xff;
      if (damage === 3) bytes = Uint8Array.of(...bytes, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
      const max = [64 * 1024, 200][random() % 2]!;
      expect(inPlace(bytes, max)).toEqual(reference(bytes, max));
    }
  });
});
