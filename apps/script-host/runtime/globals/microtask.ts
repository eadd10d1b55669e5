import { reportUncaught } from "../errors/report.js";

// Taken before any script runs, so that a script replacing them does not break queueMicrotask.
const resolved = Promise.resolve();
const then = Promise.prototype.then;
const apply = Reflect.apply;

/** `queueMicrotask(callback)`: runs the callback as a microtask; a throw is an uncaught error. */
export function queueMicrotask(callback: unknown): void {
  if (typeof callback !== "function") throw new TypeError("queueMicrotask needs a function");
  apply(then, resolved, [
    () => {
      try {
        callback();
      } catch (error) {
        reportUncaught(error);
      }
    },
  ]);
}
