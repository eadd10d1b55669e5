import { create, fromBinary, ScalarType, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { decodeEnvelope as decodeEnvelopeFull } from "../envelope.js";
import { DecodeError } from "../errors.js";
import { encodeFrame } from "../framing.js";
import { BaseMsgSchema, type Msg, MsgSchema } from "../gen/main/msg_pb.js";
import { MSG_FIELDS } from "./fields.js";
import {
  decodeEnvelopeWire,
  decodeMsgWire,
  encodeEnvelope,
  encodeEnvelopeFrame,
  encodeMsg,
  newMsg,
} from "./wire-msg.js";

/** A small seeded generator (mulberry32), so a failure names the message that caused it. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pieces = ["a", "/", "é", "☃", "😀", "\u0000", "\ud800", "x".repeat(70), "", "\n", "ß"];
  const text = () => Array.from({ length: int(6) }, () => pieces[int(pieces.length)]).join("");
  const int32 = () => [0, 1, -1, 127, 128, 2 ** 31 - 1, -(2 ** 31), 300, -300][int(9)]! || int(2 ** 32) | 0;
  return { next, int, text, int32 };
}

function randomMsg(seed: number): Msg {
  const r = random(seed);
  const init: Record<string, unknown> = {};
  for (const field of MSG_FIELDS) {
    if (r.next() < 0.5) continue;
    switch (field.kind) {
      case "enum":
        init[field.local] = r.int(11);
        break;
      case "int32":
        init[field.local] = r.int32();
        break;
      case "bool":
        init[field.local] = r.next() < 0.5;
        break;
      case "string":
        init[field.local] = r.text();
        break;
      case "bytes":
        init[field.local] = Uint8Array.from({ length: r.int(300) }, () => r.int(256));
        break;
      case "strings":
        init[field.local] = Array.from({ length: r.int(4) }, () => r.text());
        break;
    }
  }
  return create(MsgSchema, init);
}

/** A Msg as plain data without protobuf-es's bookkeeping, for comparing decodes. */
const plain = (msg: Msg) => {
  const { $unknown: _unknown, ...rest } = msg as Msg & { $unknown?: unknown };
  return rest;
};

describe("the specialised Msg codec", () => {
  it("lists exactly the generated descriptor's fields, in number order, with their kinds", () => {
    const kindOf = (field: (typeof MsgSchema.fields)[number]) => {
      if (field.fieldKind === "enum") return "enum";
      if (field.fieldKind === "list")
        return field.listKind === "scalar" && field.scalar === ScalarType.STRING ? "strings" : "?";
      if (field.fieldKind !== "scalar") return "?";
      const kinds: Partial<Record<ScalarType, string>> = {
        [ScalarType.INT32]: "int32",
        [ScalarType.BOOL]: "bool",
        [ScalarType.STRING]: "string",
        [ScalarType.BYTES]: "bytes",
      };
      return kinds[field.scalar] ?? "?";
    };
    const generated = [...MsgSchema.fields]
      .sort((a, b) => a.number - b.number)
      .map((field) => ({ no: field.number, name: field.name, local: field.localName, kind: kindOf(field) }));
    expect(MSG_FIELDS).toEqual(generated);
  });

  it("makes the same message as protobuf-es's create", () => {
    expect(newMsg({ command: 3, startArgv: ["a"] })).toEqual(
      create(MsgSchema, { command: 3, startArgv: ["a"] }),
    );
  });

  it("encodes 2,000 generated messages byte for byte as protobuf-es does, and decodes them alike", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const msg = randomMsg(seed);
      const reference = toBinary(MsgSchema, msg);
      expect(encodeMsg(msg), `seed ${seed}`).toEqual(reference);
      const decoded = decodeMsgWire(reference);
      expect(decoded.sawUnknown).toBe(false);
      expect(plain(decoded.msg), `seed ${seed}`).toEqual(plain(fromBinary(MsgSchema, reference)));
      const envelope = toBinary(
        BaseMsgSchema,
        create(BaseMsgSchema, { channel: "timers", payload: reference }),
      );
      expect(encodeEnvelope("timers", msg), `seed ${seed}`).toEqual(envelope);
      expect(encodeEnvelopeFrame("timers", msg), `seed ${seed}`).toEqual(encodeFrame(envelope));
      expect(decodeEnvelopeWire(envelope).channel).toBe("timers");
    }
  });

  it("frames envelopes with any channel, empty messages and non-ASCII channel names alike", () => {
    for (const channel of ["", "os", "ünïcode", "x".repeat(200)]) {
      for (const msg of [newMsg({}), newMsg({ error: "e".repeat(300) })]) {
        expect(encodeEnvelopeFrame(channel, msg)).toEqual(encodeFrame(encodeEnvelope(channel, msg)));
      }
    }
  });

  it("agrees with protobuf-es on every prefix of a message: both fail, or both read the same", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const bytes = toBinary(MsgSchema, randomMsg(seed));
      for (let end = 0; end < bytes.length; end++) {
        const prefix = bytes.subarray(0, end);
        let reference: Msg | undefined;
        try {
          reference = fromBinary(MsgSchema, prefix);
        } catch {
          reference = undefined;
        }
        if (reference === undefined) {
          expect(() => decodeMsgWire(prefix), `seed ${seed} end ${end}`).toThrow(DecodeError);
        } else {
          expect(plain(decodeMsgWire(prefix).msg), `seed ${seed} end ${end}`).toEqual(plain(reference));
        }
      }
    }
  });

  it("skips unknown fields and says so; the full decoder keeps them as protobuf-es does", () => {
    const known = toBinary(MsgSchema, create(MsgSchema, { command: 5, exitCode: 7 }));
    // field 200 varint 1, field 201 length-delimited "hi", field 202 fixed32, field 203 fixed64
    const extra = [
      0xc0, 0x0c, 0x01, 0xca, 0x0c, 0x02, 0x68, 0x69, 0xd5, 0x0c, 1, 2, 3, 4, 0xd9, 0x0c, 1, 2, 3, 4, 5, 6, 7,
      8,
    ];
    const bytes = new Uint8Array([...known, ...extra]);
    const wire = decodeMsgWire(bytes);
    expect(wire.sawUnknown).toBe(true);
    expect(wire.msg.exitCode).toBe(7);
    const envelope = toBinary(BaseMsgSchema, create(BaseMsgSchema, { channel: "os", payload: bytes }));
    expect(decodeEnvelopeFull(envelope).msg.$unknown?.map((field) => field.no)).toEqual([200, 201, 202, 203]);
  });

  it("refuses a known field sent with another wire type, a zero field number and bad varints", () => {
    for (const bytes of [
      [0x0a, 0x00], // command (varint) as length-delimited
      [0x10, 0x01], // error (string) as varint
      [0x00, 0x01],
      [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
      [0x0f],
    ]) {
      expect(() => decodeMsgWire(new Uint8Array(bytes)), JSON.stringify(bytes)).toThrow(DecodeError);
    }
  });
});
