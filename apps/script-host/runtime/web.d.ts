// The web globals the runtime itself installs (globals/install.ts) and uses; the isolate has no
// DOM or Node typings, so the few the runtime relies on are declared here.
declare const console: { error(...args: unknown[]): void; log(...args: unknown[]): void };
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBuffer | ArrayBufferView): string;
}
interface ErrorConstructor {
  stackTraceLimit: number;
}
