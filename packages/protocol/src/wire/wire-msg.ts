import { DecodeError } from "../errors.js";
import type { Msg } from "../gen/main/msg_pb.js";
import { MSG_FIELDS } from "./fields.js";

/**
 * A protobuf codec for this protocol's two messages, specialised for their fixed fields and
 * free of any reflection: protobuf-es encodes or decodes a Msg in 5–15 µs because it walks the
 * descriptor on every call (and initialising its descriptors costs ~24 ms in a fresh isolate),
 * which made timers and start-up slow. The bytes are exactly protobuf-es's (fields in number
 * order, proto3 defaults left out); tests compare both codecs on generated messages. Unknown
 * fields are skipped (proto3's rule); callers that must keep them use the reflective codec.
 */

/** A decoded Msg. The same shape protobuf-es's `create(MsgSchema)` makes, so both codecs mix. */
export type WireMsg = Msg;

/** The fields of a Msg to set; the rest take their proto3 defaults. */
export type MsgInit = Partial<Omit<Msg, "$typeName" | "$unknown">>;

/** The default of `fetch_res_body`, shared: a zero-length array cannot be written to. */
const NO_BYTES = new Uint8Array(0);

/** A Msg with every field at its default: what `create(MsgSchema)` returns. */
function emptyMsg(): Msg {
  return {
    $typeName: "main.Msg",
    command: 0,
    error: "",
    startCwd: "",
    startArgv: [],
    startDebugFlag: false,
    startMainJs: "",
    startMainMap: "",
    codeFetchModuleSpecifier: "",
    codeFetchContainingFile: "",
    codeFetchResModuleName: "",
    codeFetchResFilename: "",
    codeFetchResSourceCode: "",
    codeFetchResOutputCode: "",
    codeCacheFilename: "",
    codeCacheSourceCode: "",
    codeCacheOutputCode: "",
    exitCode: 0,
    timerStartId: 0,
    timerStartInterval: false,
    timerStartDuration: 0,
    timerReadyId: 0,
    timerReadyDone: false,
    timerClearId: 0,
    fetchReqId: 0,
    fetchReqUrl: "",
    fetchResId: 0,
    fetchResStatus: 0,
    fetchResHeaderLine: [],
    fetchResBody: NO_BYTES,
  };
}

/** A Msg with every field at its default and `init` on top: what `create(MsgSchema, init)` returns. */
export function newMsg(init: MsgInit): Msg {
  return Object.assign(emptyMsg(), init);
}

// ---- writing ----

let scratch = new Uint8Array(1024);
let at = 0;

function reserve(bytes: number): void {
  if (at + bytes <= scratch.length) return;
  let size = scratch.length * 2;
  while (size < at + bytes) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(scratch.subarray(0, at));
  scratch = grown;
}

function writeVarint(value: number): void {
  reserve(10);
  if (value < 0) {
    // A negative int32 is written as its 64-bit two's complement: ten bytes.
    let low = value >>> 0;
    for (let i = 0; i < 4; i++) {
      scratch[at++] = (low & 0x7f) | 0x80;
      low >>>= 7;
    }
    scratch[at++] = (low & 0x0f) | 0x70 | 0x80;
    for (let i = 0; i < 4; i++) scratch[at++] = 0xff;
    scratch[at++] = 0x01;
    return;
  }
  while (value > 0x7f) {
    scratch[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  scratch[at++] = value;
}

let encoder: { encode(text: string): Uint8Array } | undefined;

function writeString(text: string): void {
  const length = text.length;
  // Long strings go through TextEncoder (native in the host); short ASCII ones, the common case
  // (channels, paths, ids), are written byte by byte without an allocation.
  let ascii = length <= 256;
  for (let i = 0; ascii && i < length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (!ascii) {
    encoder ??= new TextEncoder();
    writeBytes(encoder.encode(text));
    return;
  }
  writeVarint(length);
  reserve(length);
  for (let i = 0; i < length; i++) scratch[at++] = text.charCodeAt(i);
}

function writeBytes(bytes: Uint8Array): void {
  writeVarint(bytes.length);
  reserve(bytes.length);
  scratch.set(bytes, at);
  at += bytes.length;
}

function writeInt(tag: number, value: number): void {
  writeVarint(tag);
  writeVarint(value | 0);
}

function writeText(tag: number, text: string): void {
  writeVarint(tag);
  writeString(text);
}

function writeChunk(tag: number, bytes: Uint8Array): void {
  writeVarint(tag);
  writeBytes(bytes);
}

/**
 * Encodes a Msg to its protobuf bytes, byte for byte what protobuf-es's `toBinary` writes: each
 * field in number order, left out at its proto3 default (a test checks this against protobuf-es
 * on generated messages, and the field table against the generated descriptor).
 */
export function encodeMsg(msg: Msg): Uint8Array {
  at = 0;
  if (msg.command !== 0) writeInt(8, msg.command);
  if (msg.error !== "") writeText(18, msg.error);
  if (msg.startCwd !== "") writeText(82, msg.startCwd);
  for (const item of msg.startArgv) writeText(90, item);
  if (msg.startDebugFlag) writeInt(96, 1);
  if (msg.startMainJs !== "") writeText(106, msg.startMainJs);
  if (msg.startMainMap !== "") writeText(114, msg.startMainMap);
  if (msg.codeFetchModuleSpecifier !== "") writeText(162, msg.codeFetchModuleSpecifier);
  if (msg.codeFetchContainingFile !== "") writeText(170, msg.codeFetchContainingFile);
  if (msg.codeFetchResModuleName !== "") writeText(242, msg.codeFetchResModuleName);
  if (msg.codeFetchResFilename !== "") writeText(250, msg.codeFetchResFilename);
  if (msg.codeFetchResSourceCode !== "") writeText(258, msg.codeFetchResSourceCode);
  if (msg.codeFetchResOutputCode !== "") writeText(266, msg.codeFetchResOutputCode);
  if (msg.codeCacheFilename !== "") writeText(330, msg.codeCacheFilename);
  if (msg.codeCacheSourceCode !== "") writeText(338, msg.codeCacheSourceCode);
  if (msg.codeCacheOutputCode !== "") writeText(346, msg.codeCacheOutputCode);
  if (msg.exitCode !== 0) writeInt(400, msg.exitCode);
  if (msg.timerStartId !== 0) writeInt(480, msg.timerStartId);
  if (msg.timerStartInterval) writeInt(488, 1);
  if (msg.timerStartDuration !== 0) writeInt(496, msg.timerStartDuration);
  if (msg.timerReadyId !== 0) writeInt(560, msg.timerReadyId);
  if (msg.timerReadyDone) writeInt(568, 1);
  if (msg.timerClearId !== 0) writeInt(640, msg.timerClearId);
  if (msg.fetchReqId !== 0) writeInt(720, msg.fetchReqId);
  if (msg.fetchReqUrl !== "") writeText(730, msg.fetchReqUrl);
  if (msg.fetchResId !== 0) writeInt(800, msg.fetchResId);
  if (msg.fetchResStatus !== 0) writeInt(808, msg.fetchResStatus);
  for (const item of msg.fetchResHeaderLine) writeText(818, item);
  if (msg.fetchResBody.length > 0) writeChunk(826, msg.fetchResBody);
  return scratch.slice(0, at);
}

/** Encodes `BaseMsg{channel, payload: msg}`. */
export function encodeEnvelope(channel: string, msg: Msg): Uint8Array {
  const payload = encodeMsg(msg);
  at = 0;
  if (channel !== "") {
    writeVarint(1 * 8 + 2);
    writeString(channel);
  }
  if (payload.length > 0) {
    writeVarint(2 * 8 + 2);
    writeBytes(payload);
  }
  return scratch.slice(0, at);
}

/** The bytes a varint of `value` takes (value ≥ 0). */
function varintLength(value: number): number {
  let length = 1;
  while (value > 0x7f) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

/**
 * Encodes `BaseMsg{channel, payload: msg}` as one frame of a batch: its length as a varint, then
 * the bytes {@link encodeEnvelope} writes (one allocation instead of three).
 */
export function encodeEnvelopeFrame(channel: string, msg: Msg): Uint8Array {
  const payload = encodeMsg(msg);
  at = 0;
  let channelBytes = 0;
  for (let i = 0; i < channel.length; i++) {
    if (channel.charCodeAt(i) > 0x7f) return encodeFrameOf(encodeEnvelope(channel, msg));
    channelBytes++;
  }
  const size =
    (channelBytes > 0 ? 1 + varintLength(channelBytes) + channelBytes : 0) +
    (payload.length > 0 ? 1 + varintLength(payload.length) + payload.length : 0);
  writeVarint(size);
  if (channelBytes > 0) {
    writeVarint(1 * 8 + 2);
    writeString(channel);
  }
  if (payload.length > 0) {
    writeVarint(2 * 8 + 2);
    writeBytes(payload);
  }
  return scratch.slice(0, at);
}

function encodeFrameOf(bytes: Uint8Array): Uint8Array {
  at = 0;
  writeVarint(bytes.length);
  reserve(bytes.length);
  scratch.set(bytes, at);
  at += bytes.length;
  return scratch.slice(0, at);
}

// ---- reading ----

const KNOWN = new Set(MSG_FIELDS.map((field) => field.no));

class Reader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly what: string,
  ) {}

  fail(code: "malformed" | "truncated", reason: string): never {
    throw new DecodeError(code, `cannot decode ${this.what}: ${reason}`);
  }

  /** A varint as an unsigned number (tags and lengths: at most 2^35 here). */
  uint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) this.fail("truncated", "premature EOF");
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    this.fail("malformed", "invalid varint");
  }

  /** A varint as an int32: the low 32 bits of up to ten bytes, signed (protobuf's rule). */
  int32(): number {
    let value = 0;
    for (let i = 0; i < 10; i++) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) this.fail("truncated", "premature EOF");
      if (i < 5) value |= (byte & 0x7f) << (7 * i);
      if (byte < 0x80) return value | 0;
    }
    this.fail("malformed", "invalid varint");
  }

  /** Whether a varint of up to ten bytes is not zero (a bool). */
  nonZero(): boolean {
    let any = false;
    for (let i = 0; i < 10; i++) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) this.fail("truncated", "premature EOF");
      if ((byte & 0x7f) !== 0) any = true;
      if (byte < 0x80) return any;
    }
    this.fail("malformed", "invalid varint");
  }

  chunk(): Uint8Array {
    const length = this.uint();
    const end = this.pos + length;
    if (end > this.bytes.length) this.fail("truncated", "premature EOF");
    const chunk = this.bytes.subarray(this.pos, end);
    this.pos = end;
    return chunk;
  }

  string(): string {
    return utf8(this.chunk());
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.int32();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.chunk();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        this.fail("malformed", `cannot skip wire type ${wireType}`);
    }
    if (this.pos > this.bytes.length) this.fail("truncated", "premature EOF");
  }
}

let decoder: { decode(bytes: Uint8Array): string } | undefined;

function utf8(bytes: Uint8Array): string {
  const length = bytes.length;
  if (length < 64) {
    let text = "";
    for (let i = 0; i < length; i++) {
      const byte = bytes[i]!;
      if (byte > 0x7f) {
        text = "";
        break;
      }
      text += String.fromCharCode(byte);
      if (i === length - 1) return text;
    }
  }
  decoder ??= new TextDecoder();
  return decoder.decode(bytes);
}

/**
 * Decodes Msg bytes. Unknown fields are skipped; `sawUnknown` tells the caller there were some.
 * Throws {@link DecodeError} on truncated or malformed bytes, as the reflective codec does.
 */
export function decodeMsgWire(bytes: Uint8Array): { msg: Msg; sawUnknown: boolean } {
  const reader = new Reader(bytes, "Msg");
  const msg = emptyMsg();
  let sawUnknown = false;
  while (reader.pos < bytes.length) {
    const tag = reader.uint();
    switch (tag) {
      case 8:
        msg.command = reader.int32();
        break;
      case 18:
        msg.error = reader.string();
        break;
      case 82:
        msg.startCwd = reader.string();
        break;
      case 90:
        msg.startArgv.push(reader.string());
        break;
      case 96:
        msg.startDebugFlag = reader.nonZero();
        break;
      case 106:
        msg.startMainJs = reader.string();
        break;
      case 114:
        msg.startMainMap = reader.string();
        break;
      case 162:
        msg.codeFetchModuleSpecifier = reader.string();
        break;
      case 170:
        msg.codeFetchContainingFile = reader.string();
        break;
      case 242:
        msg.codeFetchResModuleName = reader.string();
        break;
      case 250:
        msg.codeFetchResFilename = reader.string();
        break;
      case 258:
        msg.codeFetchResSourceCode = reader.string();
        break;
      case 266:
        msg.codeFetchResOutputCode = reader.string();
        break;
      case 330:
        msg.codeCacheFilename = reader.string();
        break;
      case 338:
        msg.codeCacheSourceCode = reader.string();
        break;
      case 346:
        msg.codeCacheOutputCode = reader.string();
        break;
      case 400:
        msg.exitCode = reader.int32();
        break;
      case 480:
        msg.timerStartId = reader.int32();
        break;
      case 488:
        msg.timerStartInterval = reader.nonZero();
        break;
      case 496:
        msg.timerStartDuration = reader.int32();
        break;
      case 560:
        msg.timerReadyId = reader.int32();
        break;
      case 568:
        msg.timerReadyDone = reader.nonZero();
        break;
      case 640:
        msg.timerClearId = reader.int32();
        break;
      case 720:
        msg.fetchReqId = reader.int32();
        break;
      case 730:
        msg.fetchReqUrl = reader.string();
        break;
      case 800:
        msg.fetchResId = reader.int32();
        break;
      case 808:
        msg.fetchResStatus = reader.int32();
        break;
      case 818:
        msg.fetchResHeaderLine.push(reader.string());
        break;
      case 826:
        msg.fetchResBody = reader.chunk().slice();
        break;
      default: {
        const no = Math.floor(tag / 8);
        if (no === 0) reader.fail("malformed", "illegal tag: field no 0");
        if (KNOWN.has(no)) reader.fail("malformed", `wrong wire type ${tag % 8} for field ${no}`);
        sawUnknown = true;
        reader.skip(tag % 8);
      }
    }
  }
  return { msg, sawUnknown };
}

/**
 * Decodes BaseMsg bytes and the Msg inside. Unknown fields of either are skipped; `sawUnknown`
 * reports them.
 */
export function decodeEnvelopeWire(bytes: Uint8Array): { channel: string; msg: Msg; sawUnknown: boolean } {
  const reader = new Reader(bytes, "BaseMsg");
  let channel = "";
  let payload: Uint8Array = new Uint8Array(0);
  let sawUnknown = false;
  while (reader.pos < bytes.length) {
    const tag = reader.uint();
    const no = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (no === 0) reader.fail("malformed", "illegal tag: field no 0");
    if ((no === 1 || no === 2) && wireType === 2) {
      if (no === 1) channel = reader.string();
      else payload = reader.chunk();
    } else if (no === 1 || no === 2) {
      reader.fail("malformed", `wrong wire type ${wireType} for field ${no}`);
    } else {
      sawUnknown = true;
      reader.skip(wireType);
    }
  }
  const decoded = decodeMsgWire(payload);
  return { channel, msg: decoded.msg, sawUnknown: sawUnknown || decoded.sawUnknown };
}
