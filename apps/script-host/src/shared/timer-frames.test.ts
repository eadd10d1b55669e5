import {
  Channel,
  Command,
  decodeEnvelope,
  encodeEnvelope,
  encodeEnvelopeFrame,
  FrameDecoder,
  timerReady,
  timerStart,
  validate,
} from "@kiln/protocol/wire";
import { describe, expect, it } from "vitest";
import {
  isTimerId,
  readTimerReady,
  readTimerStart,
  timerReady as readyRead,
  timerStart as startRead,
  timerReadyFrameSize,
  timerStartFrameSize,
  writeTimerReady,
  writeTimerStart,
} from "./timer-frames.js";

const IDS = [
  1,
  2,
  127,
  128,
  255,
  16_383,
  16_384,
  2_097_151,
  2_097_152,
  268_435_455,
  268_435_456,
  2 ** 31 - 1,
];
const DURATIONS = [0, ...IDS];

/** The frame's BaseMsg bytes, without the length prefix. */
function body(frame: Uint8Array): Uint8Array {
  const frames = new FrameDecoder().push(frame);
  expect(frames).toHaveLength(1);
  return frames[0]!;
}

describe("TIMER_START frames", () => {
  it("are written byte for byte as the codec writes them", () => {
    for (const id of IDS) {
      for (const interval of [false, true]) {
        for (const duration of DURATIONS) {
          const expected = encodeEnvelopeFrame(Channel.timers, timerStart({ id, interval, duration }));
          const size = timerStartFrameSize(id, interval, duration);
          const out = new Uint8Array(size + 3);
          expect(writeTimerStart(out, 3, id, interval, duration)).toBe(size + 3);
          expect(out.subarray(3)).toEqual(expected);
        }
      }
    }
  });

  it("are read as the full decoder reads them", () => {
    for (const id of IDS) {
      for (const interval of [false, true]) {
        for (const duration of DURATIONS) {
          const bytes = encodeEnvelope(Channel.timers, timerStart({ id, interval, duration }));
          expect(readTimerStart(bytes)).toBe(true);
          expect({ ...startRead }).toEqual({ id, interval, duration });
        }
      }
    }
  });
});

describe("TIMER_READY frames", () => {
  it("are written byte for byte as the codec writes them, and read back", () => {
    for (const id of IDS) {
      for (const done of [false, true]) {
        const expected = encodeEnvelopeFrame(Channel.timers, timerReady({ id, done }));
        const size = timerReadyFrameSize(id, done);
        const out = new Uint8Array(size);
        expect(writeTimerReady(out, 0, id, done)).toBe(size);
        expect(out).toEqual(expected);
        expect(readTimerReady(body(expected))).toBe(true);
        expect({ ...readyRead }).toEqual({ id, done });
      }
    }
  });
});

describe("the readers", () => {
  it("leave every other form to the full decoder, valid or not", () => {
    const others = [
      encodeEnvelope(Channel.timers, timerStart({ id: 0, interval: false, duration: 5 })),
      encodeEnvelope(Channel.timers, timerStart({ id: -1, interval: false, duration: 5 })),
      encodeEnvelope(Channel.timers, timerStart({ id: 3, interval: false, duration: -5 })),
      encodeEnvelope(Channel.os, timerStart({ id: 3, interval: false, duration: 5 })),
      encodeEnvelope(Channel.timers, { ...timerStart({ id: 3, interval: false, duration: 5 }), error: "x" }),
      encodeEnvelope(Channel.timers, timerReady({ id: 3, done: true })),
      // A field written with its default value, and a non-minimal varint: valid protobuf.
      Uint8Array.of(
        0x0a,
        0x06,
        ...new TextEncoder().encode("timers"),
        0x12,
        0x08,
        0x08,
        0x06,
        0xe0,
        0x03,
        0x03,
        0xf0,
        0x03,
        0x00,
      ),
      Uint8Array.of(
        0x0a,
        0x06,
        ...new TextEncoder().encode("timers"),
        0x12,
        0x06,
        0x08,
        0x06,
        0xe0,
        0x03,
        0x83,
        0x00,
      ),
    ];
    for (const bytes of others.slice(0, 6)) expect(readTimerStart(bytes)).toBe(false);
    for (const bytes of others.slice(6)) {
      expect(readTimerStart(bytes)).toBe(false);
      expect(decodeEnvelope(bytes).msg.command).toBe(Command.TIMER_START);
    }
    expect(
      readTimerReady(encodeEnvelope(Channel.timers, timerStart({ id: 3, interval: false, duration: 5 }))),
    ).toBe(false);
  });

  it("never read a mutated frame as anything but what the full decoder and the checks make of it", () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const start = i % 2 === 0;
      const id = IDS[random() % IDS.length]!;
      const bytes = start
        ? encodeEnvelope(
            Channel.timers,
            timerStart({ id, interval: random() % 2 === 0, duration: random() % 1000 }),
          )
        : encodeEnvelope(Channel.timers, timerReady({ id, done: random() % 2 === 0 }));
      const mutated = bytes.slice();
      for (let n = 1 + (random() % 2); n > 0; n--) mutated[random() % mutated.length] = random() & 0xff;
      if (start ? !readTimerStart(mutated) : !readTimerReady(mutated)) continue;
      accepted++;
      const { channel, msg } = decodeEnvelope(mutated);
      expect(channel).toBe(Channel.timers);
      expect(validate(msg)).toEqual([]);
      if (start) {
        expect(msg.command).toBe(Command.TIMER_START);
        expect([msg.timerStartId, msg.timerStartInterval, msg.timerStartDuration]).toEqual([
          startRead.id,
          startRead.interval,
          startRead.duration,
        ]);
      } else {
        expect(msg.command).toBe(Command.TIMER_READY);
        expect([msg.timerReadyId, msg.timerReadyDone]).toEqual([readyRead.id, readyRead.done]);
      }
    }
    // Mutations that keep a canonical frame (another id or duration) do happen.
    expect(accepted).toBeGreaterThan(100);
  });

  it("take ids from 1 to 2^31 - 1 only", () => {
    expect([1, 2 ** 31 - 1].every(isTimerId)).toBe(true);
    expect([0, -1, 2 ** 31, 1.5, Number.NaN].some(isTimerId)).toBe(false);
  });
});
