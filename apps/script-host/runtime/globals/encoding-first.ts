import { KilnTextDecoder, KilnTextEncoder } from "./text-encoding.js";

// Imported first by main.ts: the protocol codec (protobuf-es) looks for TextEncoder and
// TextDecoder while its modules initialise, before installGlobals() runs.
for (const [name, value] of [
  ["TextEncoder", KilnTextEncoder],
  ["TextDecoder", KilnTextDecoder],
] as const) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}
