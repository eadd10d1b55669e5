import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, decodeEnvelope } from "@kiln/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { runNode } from "./helpers/run-kiln.js";

const work = await mkdtemp(join(tmpdir(), "kiln-protocol-errors-"));
afterAll(() => rm(work, { recursive: true, force: true }));

const helper = (name: string) => fileURLToPath(new URL(`./helpers/${name}`, import.meta.url));
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

describe("malformed messages", () => {
  it("from the runtime: the host answers each with ERROR and a reason, and keeps running", async () => {
    const result = await runNode(helper("fake-runtime.mjs"), [], work);
    const answers = result.stdout
      .trim()
      .split("\n")
      .map((line) => {
        const [kind, hex] = line.split(" ");
        return { kind, ...decodeEnvelope(fromHex(hex!)) };
      });
    expect(answers.map((answer) => answer.kind)).toEqual(["request", "message", "message", "message"]);
    for (const answer of answers) {
      expect(answer.channel).toBe("os");
      expect(answer.msg.command).toBe(Command.ERROR);
    }
    const reasons = answers.map((answer) => answer.msg.error);
    expect(reasons[0]).toMatch(/^ProtocolError: cannot decode BaseMsg/);
    expect(reasons[1]).toMatch(/^ProtocolError: cannot decode BaseMsg/);
    expect(reasons[2]).toBe(
      'ProtocolError: TIMER_READY is not accepted from the runtime on channel "timers"',
    );
    expect(reasons[3]).toBe("ProtocolError: exit_code is set but TIMER_CLEAR does not use it");
    // The well-formed EXIT sent after the errors still ends the run with its code.
    expect(result.code).toBe(4);
  });

  it("from the host: the runtime answers garbage with ERROR and the script carries on", async () => {
    await writeFile(
      join(work, "wait.ts"),
      'setTimeout(() => console.log("still fine"), 200);\nconsole.log("started");\n',
    );
    const result = await runNode(helper("inject-garbage.mjs"), ["wait.ts"], work);
    expect(result.stdout).toBe("started\nstill fine\n");
    expect(result.stderr).toMatch(
      /the runtime reported a protocol error on "os": ProtocolError: cannot decode BaseMsg/,
    );
    expect(result.stderr).toMatch(
      /the runtime reported a protocol error on "os": ProtocolError: the runtime does not listen on channel "nope"/,
    );
    expect(result.code).toBe(0);
  });
});
