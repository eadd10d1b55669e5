/** What went wrong while decoding protocol bytes. */
export type DecodeErrorCode = "malformed" | "truncated" | "frame-too-large";

/**
 * Thrown when bytes cannot be decoded as a protocol message or frame: garbage, a message cut
 * short, or a frame longer than the reader accepts. Decoding never hangs or crashes instead.
 */
export class DecodeError extends Error {
  override readonly name = "DecodeError";

  constructor(
    /** The kind of failure, for callers that answer differently to each. */
    readonly code: DecodeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
