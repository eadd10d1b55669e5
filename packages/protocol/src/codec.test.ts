import { create, equals } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { decodeBaseMsg, decodeMsg, encodeBaseMsg, encodeMsg } from "./codec.js";
import * as commands from "./commands.js";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { DecodeError } from "./errors.js";
import { BaseMsgSchema, Command, type Msg, MsgSchema } from "./gen/main/msg_pb.js";

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** One message per command, with every field the command uses set to a non-default value. */
const samples: Record<string, Msg> = {
  ERROR: commands.error({ error: "boom", fetchResId: 4 }),
  START: commands.start({
    cwd: "/w",
    argv: ["a.ts", "-x", ""],
    debugFlag: true,
    mainJs: "1;",
    mainMap: "{}",
  }),
  CODE_FETCH: commands.codeFetch({ moduleSpecifier: "./b.ts", containingFile: "/w/a.ts" }),
  CODE_FETCH_RES: commands.codeFetchRes({
    moduleName: "https://x.test/m.ts",
    filename: "/c/deps/https/x.test/m.ts",
    sourceCode: "export const é = '☃';",
    outputCode: "exports.é = '☃';",
  }),
  CODE_CACHE: commands.codeCache({ filename: "/w/a.ts", sourceCode: "let a: number", outputCode: "let a" }),
  EXIT: commands.exit({ code: -3 }),
  TIMER_START: commands.timerStart({ id: 2147483647, interval: true, duration: 250 }),
  TIMER_READY: commands.timerReady({ id: 9, done: true }),
  TIMER_CLEAR: commands.timerClear({ id: 9 }),
  FETCH_REQ: commands.fetchReq({ id: 1, url: "http://127.0.0.1:1/x?y=1" }),
  FETCH_RES: commands.fetchRes({
    id: 1,
    status: 404,
    headerLines: ["Content-Type: text/plain", "X-A: 1"],
    body: bytes(0, 1, 254, 255),
  }),
};

describe("encodeMsg/decodeMsg", () => {
  it("has a sample for each of the 11 commands", () => {
    const names = Object.keys(Command).filter((key) => Number.isNaN(Number(key)));
    expect(Object.keys(samples).sort()).toEqual(names.sort());
    for (const [name, msg] of Object.entries(samples)) expect(Command[msg.command]).toBe(name);
  });

  for (const [name, msg] of Object.entries(samples)) {
    it(`round-trips ${name} with every field it uses`, () => {
      const decoded = decodeMsg(encodeMsg(msg));
      expect(equals(MsgSchema, decoded, msg)).toBe(true);
      expect(decoded.command).toBe(msg.command);
    });
  }

  it("round-trips repeated strings and bytes exactly, including empty entries", () => {
    const decoded = decodeMsg(encodeMsg(samples.START!));
    expect(decoded.startArgv).toEqual(["a.ts", "-x", ""]);
    const res = decodeMsg(encodeMsg(samples.FETCH_RES!));
    expect(res.fetchResHeaderLine).toEqual(["Content-Type: text/plain", "X-A: 1"]);
    expect([...res.fetchResBody]).toEqual([0, 1, 254, 255]);
  });

  it("omits zero values (proto3) and decodes absent fields as their defaults", () => {
    expect(encodeMsg(commands.error({ error: "" }))).toEqual(new Uint8Array(0));
    expect(encodeMsg(commands.timerReady({ id: 0, done: false }))).toEqual(bytes(0x08, 0x07));
    const decoded = decodeMsg(new Uint8Array(0));
    expect(decoded.command).toBe(Command.ERROR);
    expect(decoded.error).toBe("");
    expect(decoded.startArgv).toEqual([]);
    expect(decoded.fetchResBody).toEqual(new Uint8Array(0));
    expect(decoded.timerStartInterval).toBe(false);
  });

  it("preserves unknown fields through decode and re-encode", () => {
    // EXIT, then field 200 (varint 7) and field 201 (length-delimited "hi") that Msg does not define.
    const wire = bytes(0x08, 0x05, 0xc0, 0x0c, 0x07, 0xca, 0x0c, 0x02, ...ascii("hi"));
    const decoded = decodeMsg(wire);
    expect(decoded.command).toBe(Command.EXIT);
    expect(decoded.$unknown?.map((field) => field.no)).toEqual([200, 201]);
    expect(encodeMsg(decoded)).toEqual(wire);
  });
});

describe("golden bytes, written by hand from the protobuf encoding rules", () => {
  it("TIMER_START {id 1, interval true, duration 10}", () => {
    // command=6: tag 0x08; field 60 varint: tag 480 = E0 03; field 61: tag 488 = E8 03; field 62: tag 496 = F0 03.
    const wire = bytes(0x08, 0x06, 0xe0, 0x03, 0x01, 0xe8, 0x03, 0x01, 0xf0, 0x03, 0x0a);
    expect(encodeMsg(commands.timerStart({ id: 1, interval: true, duration: 10 }))).toEqual(wire);
    expect(decodeMsg(wire)).toMatchObject({
      command: Command.TIMER_START,
      timerStartId: 1,
      timerStartDuration: 10,
    });
  });

  it("START with cwd, two argv entries, debug flag and bundle", () => {
    // field 10 LEN tag 0x52, field 11 LEN tag 0x5A (once per entry), field 12 varint tag 0x60, field 13 LEN tag 0x6A.
    const wire = bytes(
      ...[0x08, 0x01],
      ...[0x52, 0x01, ...ascii("/")],
      ...[0x5a, 0x04, ...ascii("a.ts")],
      ...[0x5a, 0x01, ...ascii("x")],
      ...[0x60, 0x01],
      ...[0x6a, 0x01, ...ascii("x")],
    );
    const msg = commands.start({ cwd: "/", argv: ["a.ts", "x"], debugFlag: true, mainJs: "x" });
    expect(encodeMsg(msg)).toEqual(wire);
  });

  it("FETCH_RES with status 200, a header line and binary body", () => {
    // field 100 tag 800 = A0 06; 101 tag 808 = A8 06, 200 = C8 01; 102 LEN tag 818 = B2 06; 103 LEN tag 826 = BA 06.
    const wire = bytes(
      ...[0x08, 0x0a],
      ...[0xa0, 0x06, 0x03],
      ...[0xa8, 0x06, 0xc8, 0x01],
      ...[0xb2, 0x06, 0x04, ...ascii("A: b")],
      ...[0xba, 0x06, 0x02, 0x00, 0xff],
    );
    const msg = commands.fetchRes({ id: 3, status: 200, headerLines: ["A: b"], body: bytes(0x00, 0xff) });
    expect(encodeMsg(msg)).toEqual(wire);
    expect(equals(MsgSchema, decodeMsg(wire), msg)).toBe(true);
  });

  it("EXIT with a negative int32 code takes ten varint bytes", () => {
    const wire = bytes(0x08, 0x05, 0x90, 0x03, ...Array(9).fill(0xff), 0x01);
    expect(encodeMsg(commands.exit({ code: -1 }))).toEqual(wire);
    expect(decodeMsg(wire).exitCode).toBe(-1);
  });

  it("a UTF-8 string field", () => {
    // ERROR=0 is omitted; field 2 LEN tag 0x12; "é" is C3 A9.
    expect(encodeMsg(commands.error({ error: "é" }))).toEqual(bytes(0x12, 0x02, 0xc3, 0xa9));
  });

  it("BaseMsg {channel 'os', payload EXIT}", () => {
    const wire = bytes(0x0a, 0x02, ...ascii("os"), 0x12, 0x02, 0x08, 0x05);
    expect(encodeBaseMsg(create(BaseMsgSchema, { channel: "os", payload: bytes(0x08, 0x05) }))).toEqual(wire);
    expect(encodeEnvelope("os", commands.exit({ code: 0 }))).toEqual(wire);
    const envelope = decodeEnvelope(wire);
    expect(envelope.channel).toBe("os");
    expect(envelope.msg.command).toBe(Command.EXIT);
  });
});

describe("decoding bad bytes", () => {
  const cases: [string, Uint8Array, "malformed" | "truncated"][] = [
    ["a tag cut inside its varint", bytes(0xff), "truncated"],
    ["a varint field with no value", bytes(0x08), "truncated"],
    ["a string longer than the bytes left", bytes(0x12, 0x05, 0x61), "truncated"],
    ["wire type 7, which does not exist", bytes(0x0f, 0x00), "malformed"],
    ["field number 0", bytes(0x00, 0x01), "malformed"],
  ];
  for (const [what, wire, code] of cases) {
    it(`throws a ${code} DecodeError for ${what}`, () => {
      let thrown: unknown;
      try {
        decodeMsg(wire);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DecodeError);
      expect((thrown as DecodeError).code).toBe(code);
    });
  }

  it("throws a DecodeError for a BaseMsg whose payload length runs past the end", () => {
    expect(() => decodeBaseMsg(bytes(0x12, 0x10, 0x08))).toThrow(DecodeError);
  });

  it("throws a DecodeError (never anything else) for random garbage", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed & 0xff;
    };
    for (let round = 0; round < 500; round++) {
      const garbage = Uint8Array.from({ length: 1 + (round % 40) }, random);
      try {
        decodeEnvelope(garbage);
      } catch (error) {
        expect(error).toBeInstanceOf(DecodeError);
      }
    }
  });
});
