/**
 * The host's bindings, handed to the runtime once by `__kiln_attach` (see main.ts) and kept in
 * this module only, so scripts cannot reach them: `send` (a batch of framed messages, no answer),
 * `request` (one message that blocks until the host answers) and `print` (console output). The
 * runtime may be loaded from a startup snapshot before any binding exists, so every call goes
 * through the slots below, filled at attach time.
 */
interface RawBindings {
  send(bytes: Uint8Array): unknown;
  request(bytes: Uint8Array): Uint8Array;
  print(text: string, stream: number): void;
}

const missing = () => {
  throw new Error("kiln runtime: the host's bindings are not attached");
};
const raw: RawBindings = { send: missing, request: missing, print: missing };

/** Fills the binding slots; called once by the boot code with the host's functions. */
export function attachBindings(bindings: RawBindings): void {
  raw.send = bindings.send;
  raw.request = bindings.request;
  raw.print = bindings.print;
}

/**
 * Sends a batch of length-prefixed BaseMsg frames to the host without waiting for an answer;
 * returns what the host refused of it (see src/host/refusals.ts), or nothing.
 */
export const sendBytes = (bytes: Uint8Array): unknown => raw.send(bytes);
/** Sends one encoded BaseMsg and blocks until the host's answer (also one BaseMsg). */
export const requestBytes = (bytes: Uint8Array): Uint8Array => raw.request(bytes);
/** Writes text to stdout (1) or stderr (2). */
export const print = (text: string, stream: 1 | 2): void => raw.print(text, stream);
