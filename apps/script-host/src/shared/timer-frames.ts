/**
 * The two messages a script's timers send by the thousand, TIMER_START (runtime → host) and
 * TIMER_READY (host → runtime), written and recognised as whole frames without building a Msg.
 * Used by both sides (the runtime bundles this file too), so it uses nothing of Node, and no
 * built-in a script could replace (no iterators, no library calls).
 *
 * A frame here is exactly what the protocol codec's `encodeEnvelopeFrame("timers", msg)` writes
 * for these messages: the BaseMsg's length as a varint, then BaseMsg{channel: "timers", payload}
 * with the Msg's fields in number order, proto3 defaults left out. The readers accept only that
 * canonical form, with ids and durations from 1 (ids) or 0 (durations) to 2^31 − 1; anything else,
 * however valid, is left to the full decoder, so a frame read here means exactly what the full
 * decoder and the host's checks would make of it. Tests compare both ways on many values.
 */

/** `0x0a 0x06 "timers"`: BaseMsg field 1 (channel), length 6, the channel's name. */
const CHANNEL = [0x0a, 0x06, 0x74, 0x69, 0x6d, 0x65, 0x72, 0x73] as const;
/** Msg field 1 (command) = TIMER_START (6) and TIMER_READY (7). */
const COMMAND_START = 6;
const COMMAND_READY = 7;
/** The tags (as two varint bytes) of timer_start_id (60), _interval (61), _duration (62). */
const TAG_START_ID = [0xe0, 0x03] as const;
const TAG_START_INTERVAL = [0xe8, 0x03] as const;
const TAG_START_DURATION = [0xf0, 0x03] as const;
/** The tags of timer_ready_id (70) and timer_ready_done (71). */
const TAG_READY_ID = [0xb0, 0x04] as const;
const TAG_READY_DONE = [0xb8, 0x04] as const;

const MAX = 0x7fffffff;

/** The bytes of a varint of `value` (0 ≤ value ≤ 2^31 − 1). */
function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

function putVarint(out: Uint8Array, at: number, value: number): number {
  while (value > 0x7f) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/**
 * Whether `id` fits the canonical form these functions write and read (an integer from 1 to
 * 2^31 − 1). Written without built-ins a script could replace (the runtime uses this file too).
 */
export function isTimerId(id: number): boolean {
  return typeof id === "number" && (id | 0) === id && id >= 1;
}

/** The size of the TIMER_START frame {@link writeTimerStart} writes. */
export function timerStartFrameSize(id: number, interval: boolean, duration: number): number {
  const payload = 2 + 2 + varintSize(id) + (interval ? 3 : 0) + (duration > 0 ? 2 + varintSize(duration) : 0);
  const envelope = CHANNEL.length + 1 + varintSize(payload) + payload;
  return varintSize(envelope) + envelope;
}

/**
 * Writes the TIMER_START frame for a timer (`id` from 1, `duration` from 0, both at most
 * 2^31 − 1) into `out` at `at`, which must have {@link timerStartFrameSize} bytes free; returns
 * the offset after it.
 */
export function writeTimerStart(
  out: Uint8Array,
  at: number,
  id: number,
  interval: boolean,
  duration: number,
): number {
  const payload = 2 + 2 + varintSize(id) + (interval ? 3 : 0) + (duration > 0 ? 2 + varintSize(duration) : 0);
  at = putVarint(out, at, CHANNEL.length + 1 + varintSize(payload) + payload);
  for (let i = 0; i < CHANNEL.length; i++) out[at++] = CHANNEL[i]!;
  out[at++] = 0x12;
  at = putVarint(out, at, payload);
  out[at++] = 0x08;
  out[at++] = COMMAND_START;
  out[at++] = TAG_START_ID[0];
  out[at++] = TAG_START_ID[1];
  at = putVarint(out, at, id);
  if (interval) {
    out[at++] = TAG_START_INTERVAL[0];
    out[at++] = TAG_START_INTERVAL[1];
    out[at++] = 1;
  }
  if (duration > 0) {
    out[at++] = TAG_START_DURATION[0];
    out[at++] = TAG_START_DURATION[1];
    at = putVarint(out, at, duration);
  }
  return at;
}

/** The size of the TIMER_READY frame {@link writeTimerReady} writes. */
export function timerReadyFrameSize(id: number, done: boolean): number {
  const payload = 2 + 2 + varintSize(id) + (done ? 3 : 0);
  const envelope = CHANNEL.length + 1 + varintSize(payload) + payload;
  return varintSize(envelope) + envelope;
}

/** Writes the TIMER_READY frame (`id` from 1 to 2^31 − 1) into `out` at `at`; returns the offset after it. */
export function writeTimerReady(out: Uint8Array, at: number, id: number, done: boolean): number {
  const payload = 2 + 2 + varintSize(id) + (done ? 3 : 0);
  at = putVarint(out, at, CHANNEL.length + 1 + varintSize(payload) + payload);
  for (let i = 0; i < CHANNEL.length; i++) out[at++] = CHANNEL[i]!;
  out[at++] = 0x12;
  at = putVarint(out, at, payload);
  out[at++] = 0x08;
  out[at++] = COMMAND_READY;
  out[at++] = TAG_READY_ID[0];
  out[at++] = TAG_READY_ID[1];
  at = putVarint(out, at, id);
  if (done) {
    out[at++] = TAG_READY_DONE[0];
    out[at++] = TAG_READY_DONE[1];
    out[at++] = 1;
  }
  return at;
}

/** Reading position of the readers (one reader at a time; no allocation per frame). */
const read = { at: 0, end: 0 };

/** A canonical varint from 0 to 2^31 − 1 at `read.at` (before `read.end`), or -1. */
function getVarint(bytes: Uint8Array): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 5; i++) {
    if (read.at >= read.end) return -1;
    const byte = bytes[read.at++]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) {
      // Canonical: no trailing zero group (except the value 0 itself), and within int32.
      if (i > 0 && byte === 0) return -1;
      return value <= MAX ? value : -1;
    }
  }
  return -1;
}

function expect(bytes: Uint8Array, first: number, second: number): boolean {
  if (read.at + 2 > read.end || bytes[read.at] !== first || bytes[read.at + 1] !== second) return false;
  read.at += 2;
  return true;
}

/**
 * Whether `bytes[start..end)` opens as a canonical `timers` BaseMsg whose payload runs exactly to
 * `end` and starts with `command`; if so, `read` is placed on the payload's next field.
 */
function openTimersFrame(bytes: Uint8Array, start: number, end: number, command: number): boolean {
  read.at = start;
  read.end = end;
  if (end - start < CHANNEL.length + 4) return false;
  for (let i = 0; i < CHANNEL.length; i++) if (bytes[read.at++] !== CHANNEL[i]) return false;
  if (bytes[read.at++] !== 0x12) return false;
  const payload = getVarint(bytes);
  if (payload < 0 || read.at + payload !== end) return false;
  return expect(bytes, 0x08, command);
}

/** A flag field's value byte: true when it is exactly 1. */
function flag(bytes: Uint8Array): boolean {
  return read.at < read.end && bytes[read.at++] === 1;
}

/** What {@link readTimerStart} found. */
export const timerStart = { id: 0, interval: false, duration: 0 };

/**
 * Whether the BaseMsg in `bytes[start..end)` (a frame without its length prefix) is a canonical
 * TIMER_START on `timers`; if so, its fields are in {@link timerStart}.
 */
export function readTimerStart(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  if (!openTimersFrame(bytes, start, end, COMMAND_START)) return false;
  if (!expect(bytes, TAG_START_ID[0], TAG_START_ID[1])) return false;
  const id = getVarint(bytes);
  if (id < 1) return false;
  let interval = false;
  let duration = 0;
  if (expect(bytes, TAG_START_INTERVAL[0], TAG_START_INTERVAL[1])) {
    if (!flag(bytes)) return false;
    interval = true;
  }
  if (expect(bytes, TAG_START_DURATION[0], TAG_START_DURATION[1])) {
    duration = getVarint(bytes);
    if (duration < 1) return false;
  }
  if (read.at !== read.end) return false;
  timerStart.id = id;
  timerStart.interval = interval;
  timerStart.duration = duration;
  return true;
}

/** What {@link readTimerReady} found. */
export const timerReady = { id: 0, done: false };

/**
 * Whether the BaseMsg in `bytes[start..end)` (a frame without its length prefix) is a canonical
 * TIMER_READY on `timers`; if so, its fields are in {@link timerReady}.
 */
export function readTimerReady(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  if (!openTimersFrame(bytes, start, end, COMMAND_READY)) return false;
  if (!expect(bytes, TAG_READY_ID[0], TAG_READY_ID[1])) return false;
  const id = getVarint(bytes);
  if (id < 1) return false;
  let done = false;
  if (expect(bytes, TAG_READY_DONE[0], TAG_READY_DONE[1])) {
    if (!flag(bytes)) return false;
    done = true;
  }
  if (read.at !== read.end) return false;
  timerReady.id = id;
  timerReady.done = done;
  return true;
}
