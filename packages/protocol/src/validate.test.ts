import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { decodeMsg } from "./codec.js";
import * as commands from "./commands.js";
import { Command, MsgSchema } from "./gen/main/msg_pb.js";
import { validate } from "./validate.js";

describe("validate", () => {
  it("accepts each constructor's output", () => {
    expect(validate(commands.timerStart({ id: 1, interval: false, duration: 5 }))).toEqual([]);
    expect(
      validate(commands.fetchRes({ id: 1, status: 200, headerLines: ["A: b"], body: new Uint8Array([1]) })),
    ).toEqual([]);
    expect(
      validate(commands.start({ cwd: "/", argv: ["a"], mainJs: "x", mainMap: "{}", debugFlag: true })),
    ).toEqual([]);
    expect(validate(commands.error({ error: "no", fetchResId: 3 }))).toEqual([]);
  });

  it("reports each field set that the command does not use, by its proto name", () => {
    const msg = create(MsgSchema, {
      command: Command.TIMER_CLEAR,
      timerClearId: 1,
      timerStartDuration: 10,
      fetchReqUrl: "http://x",
      startArgv: ["a"],
    });
    expect(validate(msg).map((problem) => problem.field)).toEqual([
      "start_argv",
      "timer_start_duration",
      "fetch_req_url",
    ]);
    expect(validate(msg)[0]?.message).toBe("start_argv is set but TIMER_CLEAR does not use it");
  });

  it("does not count fields at their proto3 default as set", () => {
    const msg = create(MsgSchema, { command: Command.EXIT, exitCode: 0, timerReadyDone: false, error: "" });
    expect(validate(msg)).toEqual([]);
  });

  it("reports a command value outside the enum", () => {
    const msg = decodeMsg(new Uint8Array([0x08, 0x63]));
    expect(validate(msg)).toEqual([{ field: "command", message: "unknown command value 99" }]);
  });
});
