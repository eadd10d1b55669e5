// Runs a ScriptHost whose runtime is a few lines that misbehave on purpose: they send bytes that
// are not a BaseMsg, a command the runtime may not send, a message with a field its command does
// not use, and a garbage request; they print every answer as hex and, after the third message
// from the host, exit through a well-formed EXIT (code 4). tests/protocol-errors.test.ts decodes
// the answers. Messages travel in batches of length-prefixed frames (docs/protocol.md). Usage: node --no-node-snapshot fake-runtime.mjs
import { tmpdir } from "node:os";
import { ScriptHost } from "../../dist/index.js";

const runtime = String.raw`
// A frame: the message's length as a varint, then the message (all below are shorter than 128).
const frame = (bytes) => new Uint8Array([bytes.length, ...bytes]);
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
let started = false;
let seen = 0;
globalThis.__kiln_attach = (send, request, print) => (batch) => {
  if (!started) {
    started = true;
    // START arrives first. Bytes that are not a BaseMsg at all:
    send(frame([0xff, 0xff, 0xff]));
    // channel "timers", Msg{command: TIMER_READY, timer_ready_id: 1}: only the host sends TIMER_READY.
    send(frame([0x0a, 0x06, 0x74, 0x69, 0x6d, 0x65, 0x72, 0x73, 0x12, 0x05, 0x08, 0x07, 0xb0, 0x04, 0x01]));
    // channel "timers", Msg{command: TIMER_CLEAR, timer_clear_id: 1, exit_code: 9}: exit_code is not TIMER_CLEAR's.
    send(frame([0x0a, 0x06, 0x74, 0x69, 0x6d, 0x65, 0x72, 0x73, 0x12, 0x08, 0x08, 0x08, 0x80, 0x05, 0x01, 0x90, 0x03, 0x09]));
    // A request whose BaseMsg payload claims 64 bytes that are not there.
    print("request " + hex(request(new Uint8Array([0x12, 0x40]))) + "\n", 1);
    return;
  }
  // A batch holds one or more frames; every message here is shorter than 128 bytes.
  for (let at = 0; at < batch.length; at += 1 + batch[at]) {
    print("message " + hex(batch.subarray(at + 1, at + 1 + batch[at])) + "\n", 1);
    // channel "os", Msg{command: EXIT, exit_code: 4}
    if (++seen === 3) send(frame([0x0a, 0x02, 0x6f, 0x73, 0x12, 0x05, 0x08, 0x05, 0x90, 0x03, 0x04]));
  }
};
`;

const host = new ScriptHost({
  argv: ["unused.ts"],
  cwd: process.cwd(),
  reload: false,
  debug: false,
  cacheDir: tmpdir(),
  memoryLimitMb: 64,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  runtimeBundle: { js: runtime, map: "", id: "fake" },
});
process.exitCode = await host.run();
