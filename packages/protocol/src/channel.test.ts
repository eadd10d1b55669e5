import { describe, expect, it } from "vitest";
import { Channel, channelOf, isChannel } from "./channel.js";
import { Command } from "./gen/main/msg_pb.js";

describe("channelOf", () => {
  it("maps each command to its channel as decision 14, docs/decisions.md says", () => {
    expect(channelOf(Command.START)).toBe("start");
    for (const command of [Command.CODE_FETCH, Command.CODE_FETCH_RES, Command.CODE_CACHE, Command.EXIT]) {
      expect(channelOf(command)).toBe("os");
    }
    for (const command of [Command.TIMER_START, Command.TIMER_READY, Command.TIMER_CLEAR]) {
      expect(channelOf(command)).toBe("timers");
    }
    expect(channelOf(Command.FETCH_REQ)).toBe("fetch");
    expect(channelOf(Command.FETCH_RES)).toBe("fetch");
    expect(channelOf(Command.ERROR)).toBeUndefined();
    expect(channelOf(42 as Command)).toBeUndefined();
  });

  it("knows the four channel names", () => {
    expect(Object.values(Channel)).toEqual(["start", "os", "timers", "fetch"]);
    expect(isChannel("os")).toBe(true);
    expect(isChannel("stdout")).toBe(false);
  });
});
