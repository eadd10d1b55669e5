// Runs a ScriptHost whose runtime, on START, hands the host one batch that breaks a size limit:
// `batch` sends 20 MiB at once (the limit is 16 MiB), `frame` one 2 MiB message (the limit is
// 1 MiB), `request` a 2 MiB request. tests/hostile-resources.test.ts checks that the host ends the
// run with a message instead of decoding it or crashing.
// Usage: node --no-node-snapshot oversize-runtime.mjs batch|frame|request
import { tmpdir } from "node:os";
import { ScriptHost } from "../../dist/index.js";

const runtime = String.raw`
globalThis.__kiln_attach = (send, request, print) => (batch) => {
  const kind = ${JSON.stringify(process.argv[2])};
  if (kind === "batch") send(new Uint8Array(20 * 1024 * 1024));
  if (kind === "frame") {
    const size = 2 * 1024 * 1024;
    const frame = new Uint8Array(size + 4);
    // The frame's length as a varint (2 MiB = 0x200000), then zeros.
    frame.set([0x80, 0x80, 0x80, 0x01]);
    send(frame);
  }
  if (kind === "request") {
    const answer = request(new Uint8Array(2 * 1024 * 1024));
    print("answered " + answer.length + "\n", 1);
  }
  for (;;) {}
};
`;

const host = new ScriptHost({
  argv: ["unused.ts"],
  cwd: process.cwd(),
  reload: false,
  debug: false,
  cacheDir: tmpdir(),
  memoryLimitMb: 128,
  timeoutSeconds: 5,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  runtimeBundle: { js: runtime, map: "", id: "oversize" },
});
process.exitCode = await host.run();
