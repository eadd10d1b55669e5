import { DecodeError } from "./errors.js";

/** The largest frame a reader accepts unless told otherwise: 64 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Prefixes bytes with their length as a protobuf varint: one frame of a byte stream. */
export function encodeFrame(bytes: Uint8Array): Uint8Array {
  const prefix: number[] = [];
  let length = bytes.byteLength;
  while (length > 0x7f) {
    prefix.push((length & 0x7f) | 0x80);
    length >>>= 7;
  }
  prefix.push(length);
  const frame = new Uint8Array(prefix.length + bytes.byteLength);
  frame.set(prefix, 0);
  frame.set(bytes, prefix.length);
  return frame;
}

/**
 * Splits a byte stream into frames as chunks arrive. `push` returns the frames completed by a
 * chunk; `end` throws if the stream stopped inside a frame.
 */
export class FrameDecoder {
  #buffer = new Uint8Array(0);

  constructor(private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {}

  /** Adds a chunk and returns every frame it completes, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.#buffer.byteLength + chunk.byteLength);
    joined.set(this.#buffer, 0);
    joined.set(chunk, this.#buffer.byteLength);
    const frames: Uint8Array[] = [];
    let offset = 0;
    for (;;) {
      const header = this.#readLength(joined, offset);
      if (header === undefined || joined.byteLength - header.start < header.length) break;
      // A view, not a copy: `joined` is this call's own buffer and is never written again.
      frames.push(joined.subarray(header.start, header.start + header.length));
      offset = header.start + header.length;
    }
    this.#buffer = joined.slice(offset);
    return frames;
  }

  /** Declares the end of the stream; throws a `truncated` DecodeError if a frame was left unfinished. */
  end(): void {
    if (this.#buffer.byteLength > 0) {
      throw new DecodeError(
        "truncated",
        `stream ended inside a frame (${this.#buffer.byteLength} bytes left)`,
      );
    }
  }

  #readLength(bytes: Uint8Array, offset: number): { start: number; length: number } | undefined {
    let length = 0;
    for (let i = 0; i < 5; i++) {
      const byte = bytes[offset + i];
      if (byte === undefined) return undefined;
      length += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) {
        if (length > this.maxFrameBytes) {
          throw new DecodeError("frame-too-large", `frame of ${length} bytes exceeds ${this.maxFrameBytes}`);
        }
        return { start: offset + i + 1, length };
      }
    }
    throw new DecodeError("malformed", "frame length prefix is longer than 5 bytes");
  }
}

/**
 * Iterates over the frames of a byte stream (any async iterable of chunks, such as a Node stream
 * or a web ReadableStream). Throws {@link DecodeError} on a bad prefix or a truncated last frame.
 */
export async function* readFrames(
  source: AsyncIterable<Uint8Array>,
  options: { maxFrameBytes?: number } = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const decoder = new FrameDecoder(options.maxFrameBytes);
  for await (const chunk of source) {
    yield* decoder.push(chunk);
  }
  decoder.end();
}
