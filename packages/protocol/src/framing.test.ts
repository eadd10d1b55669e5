import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { DecodeError } from "./errors.js";
import { encodeFrame, FrameDecoder, readFrames } from "./framing.js";

async function* chunks(...parts: number[][]) {
  for (const part of parts) yield new Uint8Array(part);
}

async function collect(source: AsyncIterable<Uint8Array>, maxFrameBytes?: number) {
  const frames: number[][] = [];
  for await (const frame of readFrames(source, { maxFrameBytes })) frames.push([...frame]);
  return frames;
}

describe("encodeFrame", () => {
  it("prefixes the length as a varint", () => {
    expect([...encodeFrame(new Uint8Array([7, 8]))]).toEqual([2, 7, 8]);
    expect([...encodeFrame(new Uint8Array(0))]).toEqual([0]);
    const big = encodeFrame(new Uint8Array(300));
    expect([...big.slice(0, 2)]).toEqual([0xac, 0x02]);
    expect(big.byteLength).toBe(302);
  });
});

describe("readFrames", () => {
  it("yields frames split across and joined within chunks", async () => {
    const stream = chunks([2, 1], [2, 0, 3], [9, 9, 9, 1], [0x2a]);
    expect(await collect(stream)).toEqual([[1, 2], [], [9, 9, 9], [0x2a]]);
  });

  it("reads a multi-byte length prefix split over chunks", async () => {
    const payload = Array.from({ length: 300 }, (_, i) => i & 0xff);
    const frame = [...encodeFrame(new Uint8Array(payload))];
    const parts = [frame.slice(0, 1), frame.slice(1, 2), frame.slice(2, 100), frame.slice(100)];
    expect(await collect(chunks(...parts))).toEqual([payload]);
  });

  it("works over a Node readable stream", async () => {
    const frames = [encodeFrame(new Uint8Array([1])), encodeFrame(new Uint8Array([2, 3]))];
    expect(await collect(Readable.from(frames))).toEqual([[1], [2, 3]]);
  });

  it("throws a truncated DecodeError when the stream ends inside a frame", async () => {
    await expect(collect(chunks([5, 1, 2]))).rejects.toMatchObject({
      name: "DecodeError",
      code: "truncated",
    });
    await expect(collect(chunks([0x80]))).rejects.toBeInstanceOf(DecodeError);
  });

  it("rejects a frame longer than the limit before waiting for its bytes", async () => {
    const decoder = new FrameDecoder(10);
    expect(() => decoder.push(new Uint8Array([11]))).toThrow(/exceeds 10/);
    await expect(collect(chunks([0xff, 0xff, 0xff, 0x7f]))).rejects.toMatchObject({
      code: "frame-too-large",
    });
  });

  it("rejects a length prefix of more than five bytes", () => {
    const decoder = new FrameDecoder(Number.MAX_SAFE_INTEGER);
    expect(() => decoder.push(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]))).toThrow(
      /longer than 5 bytes/,
    );
  });
});
