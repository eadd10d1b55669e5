// Runs a script with the real runtime and, once it has started, hands the runtime bytes that are
// not a BaseMsg and a message on a channel it does not listen on, as a broken host would.
// Usage: node --no-node-snapshot inject-garbage.mjs script.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScriptHost } from "../../dist/index.js";

let host;
let injected = false;
host = new ScriptHost({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  reload: false,
  debug: false,
  cacheDir: mkdtempSync(join(tmpdir(), "kiln-inject-")),
  memoryLimitMb: 64,
  stdout: (text) => {
    process.stdout.write(text);
    if (!injected) {
      injected = true;
      host.deliverRaw(new Uint8Array([0x0a, 0x09, 0x01]));
      // BaseMsg{channel: "nope", payload: Msg{command: EXIT}}
      host.deliverRaw(new Uint8Array([0x0a, 0x04, 0x6e, 0x6f, 0x70, 0x65, 0x12, 0x02, 0x08, 0x05]));
    }
  },
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = await host.run();
