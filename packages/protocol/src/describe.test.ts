import { describe, expect, it } from "vitest";
import { decodeMsg } from "./codec.js";
import * as commands from "./commands.js";
import { describeMsg } from "./describe.js";

describe("describeMsg", () => {
  it("shows the command and the fields that are set", () => {
    expect(describeMsg(commands.timerStart({ id: 3, interval: false, duration: 10 }))).toBe(
      "TIMER_START timer_start_id=3 timer_start_duration=10",
    );
  });

  it("shows long strings and bytes by size and counts unknown fields", () => {
    const msg = commands.start({ cwd: "/", argv: ["a"], mainJs: "x".repeat(500) });
    expect(describeMsg(msg)).toBe('START start_cwd="/" start_argv=["a"] start_main_js=<500 chars>');
    expect(describeMsg(commands.fetchRes({ id: 1, status: 200, body: new Uint8Array(3) }))).toContain(
      "fetch_res_body=<3 bytes>",
    );
    expect(describeMsg(decodeMsg(new Uint8Array([0x08, 0x05, 0xc0, 0x0c, 0x01])))).toBe(
      "EXIT <1 unknown fields>",
    );
  });
});
