/** The kinds of failure the host reports to the runtime in an ERROR's `error` text ("Kind: message"). */
export type HostErrorKind =
  | "NotFound"
  | "PermissionDenied"
  | "TypeError"
  | "SyntaxError"
  | "RangeError"
  | "NetworkError"
  | "ProtocolError";

/**
 * A failed request from the runtime. It travels back as `command = ERROR` with
 * `error = "<kind>: <message>"`, which the runtime turns into an Error named after the kind.
 */
export class HostError extends Error {
  constructor(
    readonly kind: HostErrorKind,
    message: string,
  ) {
    super(message);
    this.name = kind;
  }

  /** The text for the ERROR message's `error` field. */
  toErrorText(): string {
    return `${this.kind}: ${this.message}`;
  }
}

/** The `error` text for any thrown value: a HostError keeps its kind, anything else is an internal error. */
export function errorText(error: unknown): string {
  if (error instanceof HostError) return error.toErrorText();
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}
