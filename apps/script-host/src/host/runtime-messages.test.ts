import {
  Channel,
  Command,
  encodeEnvelopeFrame,
  exit,
  fetchReq,
  type Msg,
  newMsg,
  timerClear,
} from "@kiln/protocol/wire";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "./limits.js";
import { type HostContext, RuntimeMessages } from "./runtime-messages.js";

/** A host that records what RuntimeMessages does instead of doing it. */
function recordingHost() {
  const delivered: { channel: string; msg: Msg }[] = [];
  const exits: number[] = [];
  const failures: string[] = [];
  const cleared: number[] = [];
  const host = {
    timers: { clock: () => 0, start() {}, clear: (id: number) => cleared.push(id) },
    fetcher: {},
    modules: {},
    deliver: (channel: string, msg: Msg) => delivered.push({ channel, msg }),
    track() {},
    exit: (code: number) => exits.push(code),
    checkIdle() {},
    trace() {},
    debug: false,
    warn() {},
    fail: (text: string) => failures.push(text),
    limits: DEFAULT_LIMITS,
  } as unknown as HostContext;
  return { host, delivered, exits, failures, cleared };
}

const join = (...frames: Uint8Array[]) => {
  const bytes = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let at = 0;
  for (const frame of frames) {
    bytes.set(frame, at);
    at += frame.length;
  }
  return bytes;
};

const garbageFrame = Uint8Array.of(3, 0xff, 0xff, 0xff);

describe("RuntimeMessages.onSend", () => {
  it("refuses a malformed frame alone and handles the frames around it", () => {
    const { host, delivered, exits, cleared } = recordingHost();
    const messages = new RuntimeMessages(host);
    const refused = messages.onSend(
      join(
        encodeEnvelopeFrame(Channel.timers, timerClear({ id: 4 })),
        garbageFrame,
        encodeEnvelopeFrame(Channel.os, exit({ code: 2 })),
      ),
    );
    expect(refused).toEqual([1, "ProtocolError: cannot decode BaseMsg: premature EOF"]);
    expect(cleared).toEqual([4]);
    expect(exits).toEqual([2]);
    expect(delivered.map(({ channel, msg }) => [channel, msg.error])).toEqual([
      ["os", "ProtocolError: cannot decode BaseMsg: premature EOF"],
    ]);
  });

  it("refuses a batch whose framing is broken as a whole, even a prefix claiming gigabytes", () => {
    const { host, exits, failures } = recordingHost();
    const messages = new RuntimeMessages(host);
    const exitFrame = encodeEnvelopeFrame(Channel.os, exit({ code: 2 }));
    expect(messages.onSend(join(exitFrame, Uint8Array.of(0xff, 0xff, 0xff, 0x7f, 1, 2)))).toEqual([
      -1,
      "ProtocolError: stream ended inside a frame (6 bytes left)",
    ]);
    expect(messages.onSend(join(exitFrame, exitFrame.subarray(0, 5)))).toEqual([
      -1,
      "ProtocolError: stream ended inside a frame (5 bytes left)",
    ]);
    expect(messages.onSend("text" as unknown as Uint8Array)).toEqual([
      -1,
      "ProtocolError: a batch must be bytes",
    ]);
    expect(exits).toEqual([]);
    expect(failures).toEqual([]);
    expect(messages.refused.note()).toBe(
      "note: the host refused 3 messages from the runtime during this run, the first with ProtocolError: stream ended inside a frame (6 bytes left)\n",
    );
  });

  it("still ends the run for a message that really is over the size limit", () => {
    const { host, failures } = recordingHost();
    const messages = new RuntimeMessages(host);
    const big = new Uint8Array(DEFAULT_LIMITS.maxMessageBytes + 10);
    big.set([0x85, 0x80, 0x40]); // a prefix of 1 MiB + 5
    expect(messages.onSend(big)).toBe(undefined);
    expect(failures).toEqual([
      `error: the runtime sent a message larger than ${DEFAULT_LIMITS.maxMessageBytes} bytes\n`,
    ]);
  });

  it("answers a malformed FETCH_REQ on `fetch` with its id, so that fetch fails", () => {
    const { host, delivered } = recordingHost();
    const messages = new RuntimeMessages(host);
    const bad = newMsg({ ...fetchReq({ id: 9, url: "http://x/" }), exitCode: 1 });
    const refused = messages.onSend(encodeEnvelopeFrame(Channel.fetch, bad));
    expect(refused).toEqual([0, "ProtocolError: exit_code is set but FETCH_REQ does not use it"]);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.channel).toBe("fetch");
    expect(delivered[0]!.msg.command).toBe(Command.ERROR);
    expect(delivered[0]!.msg.fetchResId).toBe(9);
  });

  it("refuses the rest of a batch unread past 16 malformed messages", () => {
    const { host, delivered, exits } = recordingHost();
    const messages = new RuntimeMessages(host);
    const exitFrame = encodeEnvelopeFrame(Channel.os, exit({ code: 2 }));
    const refused = messages.onSend(join(...Array.from({ length: 40 }, () => garbageFrame), exitFrame));
    const reason = "ProtocolError: cannot decode BaseMsg: premature EOF";
    expect(refused).toEqual([
      ...Array.from({ length: 16 }, (_, i) => [i, reason]).flat(),
      -17,
      "ProtocolError: more than 16 malformed messages in one batch",
    ]);
    expect(delivered).toHaveLength(17);
    expect(exits).toEqual([]);
  });
});
