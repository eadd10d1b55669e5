/**
 * The request log's line: the JSON line pino writes for
 * `logger.info({ method, path, status, ms }, "request")` with Kiln's logger options (level, ISO
 * time, pid), formatted by hand, as a string or straight into a byte buffer.
 */

const PID = `,"pid":${process.pid}`;

/** A request's log line, as pino writes it at the time `time` (milliseconds since the epoch). */
export function requestLine(method: string, path: string, status: number, ms: number, time: number): string {
  return `{"level":30${isoTimeAt(time)}${PID},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`;
}

/**
 * The most bytes {@link writeRequestLine} writes for these strings: JSON escapes take at most six
 * bytes per UTF-16 code unit (`\u001f`), UTF-8 at most three; the rest is the fixed text, the time,
 * the pid and two numbers.
 */
export function requestLineBound(method: string, path: string): number {
  return 256 + 6 * (method.length + path.length);
}

/**
 * Writes {@link requestLine}'s bytes (UTF-8) into `bytes` at `at`, which must have
 * {@link requestLineBound} bytes free, and returns where the line ends. Building no string: the
 * fixed text and the time are copied from bytes made once per second, plain ASCII values
 * are copied a character at a time, and only values that need escaping go through
 * `JSON.stringify`.
 */
export function writeRequestLine(
  bytes: Buffer,
  at: number,
  method: string,
  path: string,
  status: number,
  ms: number,
  time: number,
): number {
  const head = headAt(time);
  bytes.set(head, at);
  let end = writeJsonString(bytes, at + head.length, method);
  bytes.set(PATH, end);
  end = writeJsonString(bytes, end + PATH.length, path);
  bytes.set(STATUS, end);
  end = writeNumber(bytes, end + STATUS.length, status);
  bytes.set(MS, end);
  end = writeNumber(bytes, end + MS.length, ms);
  bytes.set(TAIL, end);
  return end + TAIL.length;
}

const ascii = (text: string) => Buffer.from(text, "latin1");
const PATH = ascii(',"path":');
const STATUS = ascii(',"status":');
const MS = ascii(',"ms":');
const TAIL = ascii(',"msg":"request"}\n');

let headTime = Number.NaN;
let headSecond = Number.NaN;
let head = Buffer.alloc(0);
/** Where the milliseconds' three digits are in `head`. */
let headMillis = 0;

/**
 * `{"level":30,"time":"…","pid":…,"method":` for a time: made once per second, and within the
 * second only its three digits of milliseconds are written anew.
 */
function headAt(time: number): Buffer {
  if (time === headTime) return head;
  headTime = time;
  const second = Math.floor(time / 1000);
  if (second === headSecond) {
    const millis = time - second * 1000;
    head[headMillis] = 0x30 + Math.floor(millis / 100);
    head[headMillis + 1] = 0x30 + (Math.floor(millis / 10) % 10);
    head[headMillis + 2] = 0x30 + (millis % 10);
    return head;
  }
  headSecond = second;
  head = ascii(`{"level":30${isoTimeAt(time)}${PID},"method":`);
  // The time ends `.mmmZ`, and no other `Z` comes before it.
  headMillis = head.indexOf(0x5a) - 3;
  return head;
}

/** `JSON.stringify(text)`'s bytes: copied as they are when the text is printable ASCII without `"` or `\`. */
function writeJsonString(bytes: Buffer, at: number, text: string): number {
  bytes[at] = 0x22;
  let end = at + 1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) {
      return at + bytes.write(JSON.stringify(text), at);
    }
    bytes[end++] = code;
  }
  bytes[end] = 0x22;
  return end + 1;
}

/**
 * A number's text as JavaScript writes it: a non-negative count of tenths (a status, or
 * milliseconds rounded to a tenth) digit by digit, anything else by `String`.
 */
function writeNumber(bytes: Buffer, at: number, value: number): number {
  const tenths = Math.round(value * 10);
  if (!(tenths >= 0 && tenths <= 1e15 && tenths / 10 === value)) {
    return at + bytes.write(String(value), at, "latin1");
  }
  const whole = Math.floor(tenths / 10);
  let end = at;
  if (whole === 0) bytes[end++] = 0x30;
  else {
    let digits = 1;
    while (10 ** digits <= whole) digits++;
    end = at + digits;
    for (let rest = whole, index = end - 1; index >= at; index--, rest = Math.floor(rest / 10)) {
      bytes[index] = 0x30 + (rest % 10);
    }
  }
  const tenth = tenths % 10;
  if (tenth !== 0) {
    bytes[end++] = 0x2e;
    bytes[end++] = 0x30 + tenth;
  }
  return end;
}

let stampedAt = Number.NaN;
let stamp = "";

/**
 * pino's `isoTime` for a time in milliseconds, formatted once per millisecond: a busy server
 * writes many lines within one, and formatting the date is a noticeable part of a line.
 */
export function isoTimeAt(time: number): string {
  if (time !== stampedAt) {
    stampedAt = time;
    stamp = `,"time":"${new Date(time).toISOString()}"`;
  }
  return stamp;
}
