import { Command, timerClear, timerReady, timerStart } from "@kiln/protocol";
import { describe, expect, it } from "vitest";
import { rejectMalformed } from "./reject-malformed.js";

describe("rejectMalformed", () => {
  it("lets through what the runtime may send on each channel", () => {
    expect(
      rejectMalformed({ channel: "timers", msg: timerStart({ id: 1, interval: false, duration: 0 }) }),
    ).toBe(undefined);
    expect(rejectMalformed({ channel: "timers", msg: timerClear({ id: 1 }) })).toBe(undefined);
  });

  it("answers ERROR for an unknown channel, a command on the wrong channel or in the wrong direction", () => {
    expect(rejectMalformed({ channel: "stdout", msg: timerClear({ id: 1 }) })?.error).toBe(
      'ProtocolError: unknown channel "stdout"',
    );
    expect(rejectMalformed({ channel: "fetch", msg: timerClear({ id: 1 }) })?.error).toMatch(
      /TIMER_CLEAR is not accepted/,
    );
    const answer = rejectMalformed({ channel: "timers", msg: timerReady({ id: 1, done: true }) });
    expect(answer?.command).toBe(Command.ERROR);
  });

  it("answers ERROR for fields the command does not use", () => {
    const msg = timerClear({ id: 1 });
    msg.fetchReqUrl = "http://x";
    expect(rejectMalformed({ channel: "timers", msg })?.error).toBe(
      "ProtocolError: fetch_req_url is set but TIMER_CLEAR does not use it",
    );
  });
});
