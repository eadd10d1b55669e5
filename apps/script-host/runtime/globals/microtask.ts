import { reportUncaught } from "../errors/report.js";

/** `queueMicrotask(callback)`: runs the callback as a microtask; a throw is an uncaught error. */
export function queueMicrotask(callback: unknown): void {
  if (typeof callback !== "function") throw new TypeError("queueMicrotask needs a function");
  Promise.resolve().then(() => {
    try {
      callback();
    } catch (error) {
      reportUncaught(error);
    }
  });
}
