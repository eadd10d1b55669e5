import { Channel, Command, type Msg, timerClear } from "@kiln/protocol/wire";
import { reportUncaught } from "../errors/report.js";
import { onChannel, onTimerReady, send, sendTimerStart } from "../transport.js";

interface Timer {
  readonly callback: (...args: unknown[]) => void;
  readonly args: unknown[];
}

const timers = new Map<number, Timer>();
let nextId = 1;
const MAX_DURATION = 2 ** 31 - 1;

function startTimer(interval: boolean, callback: unknown, delay: unknown, args: unknown[]): number {
  if (typeof callback !== "function") throw new TypeError("the timer callback must be a function");
  const id = nextId++;
  const ms = Number(delay);
  const duration = Number.isFinite(ms) && ms > 0 ? Math.min(Math.trunc(ms), MAX_DURATION) : 0;
  timers.set(id, { callback: callback as Timer["callback"], args });
  sendTimerStart(id, interval, duration);
  return id;
}

function clearTimer(id: unknown): void {
  const key = Number(id);
  if (timers.delete(key)) send(Channel.timers, timerClear({ id: key }));
}

/** `setTimeout(callback, ms, ...args)`: TIMER_START once; the callback runs on TIMER_READY. */
export const setTimeout = (callback: unknown, delay?: unknown, ...args: unknown[]) =>
  startTimer(false, callback, delay, args);
/** `setInterval(callback, ms, ...args)`: TIMER_START with interval; runs on every TIMER_READY until cleared. */
export const setInterval = (callback: unknown, delay?: unknown, ...args: unknown[]) =>
  startTimer(true, callback, delay, args);
/** `clearTimeout(id)`: TIMER_CLEAR for a live timer; anything else is a no-op. */
export const clearTimeout = (id?: unknown) => clearTimer(id);
/** `clearInterval(id)`: the same as clearTimeout. */
export const clearInterval = (id?: unknown) => clearTimer(id);

/** TIMER_READY: runs the timer's callback (and forgets a one-shot timer). */
function timerReady(id: number, done: boolean): void {
  const timer = timers.get(id);
  if (!timer) return;
  if (done) timers.delete(id);
  try {
    timer.callback(...timer.args);
  } catch (error) {
    reportUncaught(error);
  }
}

function onTimersMessage(msg: Msg): void {
  if (msg.command === Command.TIMER_READY) timerReady(msg.timerReadyId, msg.timerReadyDone);
}

onChannel(Channel.timers, onTimersMessage);
onTimerReady(timerReady);
