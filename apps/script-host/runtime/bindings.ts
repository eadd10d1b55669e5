/**
 * The host's bindings, taken from the global object before any script runs and removed from it,
 * so scripts cannot reach them: `send` (a message, no answer), `request` (a message that blocks
 * until the host answers), `print` (console output), and `install` (our message handler).
 */
interface RawBindings {
  __kiln_send(bytes: Uint8Array): void;
  __kiln_request(bytes: Uint8Array): Uint8Array;
  __kiln_print(text: string, stream: number): void;
  __kiln_install(handler: (bytes: Uint8Array) => unknown): void;
}

const raw = globalThis as unknown as Partial<RawBindings>;
const { __kiln_send, __kiln_request, __kiln_print, __kiln_install } = raw;
if (!__kiln_send || !__kiln_request || !__kiln_print || !__kiln_install) {
  throw new Error("kiln runtime: started without the host's bindings");
}
delete raw.__kiln_send;
delete raw.__kiln_request;
delete raw.__kiln_print;

/** Sends encoded BaseMsg bytes to the host without waiting. */
export const sendBytes: (bytes: Uint8Array) => void = __kiln_send;
/** Sends encoded BaseMsg bytes and blocks until the host's answer (also BaseMsg bytes). */
export const requestBytes: (bytes: Uint8Array) => Uint8Array = __kiln_request;
/** Writes text to stdout (1) or stderr (2). */
export const print: (text: string, stream: 1 | 2) => void = __kiln_print;
/** Installs the function that receives every message from the host. */
export const installHandler: (handler: (bytes: Uint8Array) => unknown) => void = __kiln_install;
