import { kilnConsole } from "./console.js";
import { fetch } from "./fetch.js";
import { KilnHeaders } from "./headers.js";
import { queueMicrotask } from "./microtask.js";
import { KilnResponse } from "./response.js";
import { KilnTextDecoder, KilnTextEncoder } from "./text-encoding.js";
import { clearInterval, clearTimeout, setInterval, setTimeout } from "./timers.js";
import { loadUrl } from "./url.js";

function define(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

function defineLazy(name: string, get: () => unknown): void {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = get();
      define(name, value);
      return value;
    },
    set(value) {
      define(name, value);
    },
  });
}

/** Puts the web globals a script expects on the isolate's global object. */
export function installGlobals(): void {
  define("console", kilnConsole);
  define("setTimeout", setTimeout);
  define("setInterval", setInterval);
  define("clearTimeout", clearTimeout);
  define("clearInterval", clearInterval);
  define("queueMicrotask", queueMicrotask);
  define("fetch", fetch);
  define("Headers", KilnHeaders);
  define("Response", KilnResponse);
  define("TextEncoder", KilnTextEncoder);
  define("TextDecoder", KilnTextDecoder);
  defineLazy("URL", () => loadUrl().URL);
  defineLazy("URLSearchParams", () => loadUrl().URLSearchParams);
}
