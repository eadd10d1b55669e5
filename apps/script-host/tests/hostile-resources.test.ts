import { spawn } from "node:child_process";
import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackServer, startServer } from "./helpers/loopback-server.js";
import { canMeasureMemory, runKilnMeasured } from "./helpers/measure.js";
import { kilnRunBin, runKiln, runNode } from "./helpers/run-kiln.js";

/**
 * Hostile scripts against the host's memory: everything a script can make the host hold has a
 * bound, and passing it is a clear error for the script or a clear end of the run, never a
 * crash of the host.
 */
let work: string;
let server: LoopbackServer;
/** Bytes the big-module route managed to write before the client went away. */
let bigSent = 0;
const MiB = 1024 * 1024;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-hostile-res-"));
  server = await startServer(async (request, response) => {
    const url = request.url ?? "/";
    if (url === "/big.ts") {
      // 150 MiB of module, written as fast as the client reads.
      bigSent = 0;
      const chunk = Buffer.alloc(MiB, "/");
      for (let i = 0; i < 150 && !response.destroyed; i++) {
        if (!response.write(chunk)) await new Promise((resolve) => response.once("drain", resolve));
        bigSent += MiB;
      }
      response.end();
    } else if (url === "/small.ts") {
      response.end('export const small = "s";\n');
    } else if (url.startsWith("/part")) {
      response.end(`export const part = "${"p".repeat(600 * 1024)}";\n`);
    } else if (url === "/slow") {
      await new Promise((resolve) => setTimeout(resolve, 500));
      response.end("slow");
    } else if (url === "/huge") {
      response.end(Buffer.alloc(3 * MiB, "h"));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

async function script(text: string): Promise<string> {
  const name = `r${Math.random().toString(36).slice(2)}.ts`;
  await writeFile(join(work, name), text);
  return name;
}

const cache = () => join(work, `cache-${Math.random().toString(36).slice(2)}`);

describe("downloads", () => {
  it.runIf(canMeasureMemory)(
    "stop at --max-module-size: a 150 MiB module fails with a message, leaves nothing, holds little memory",
    async () => {
      // What the same run costs when its import is small: the import of a 150 MiB module may
      // add no more than a few times the 10 MiB limit to it, whatever this machine's floor is.
      const small = await script(`import { small } from "${server.origin}/small.ts";\nconsole.log(small);\n`);
      const floor = await runKilnMeasured(
        ["--cachedir", cache(), "--allow-import", "--memory-limit", "16", small],
        work,
      );
      expect(floor.stdout).toBe("s\n");
      const name = await script(`import "${server.origin}/big.ts";\nconsole.log("never");\n`);
      const dir = cache();
      const result = await runKilnMeasured(
        ["--cachedir", dir, "--allow-import", "--memory-limit", "16", name],
        work,
      );
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^error: Uncaught RangeError: import "http:\/\/127\.0\.0\.1:\d+\/big\.ts" is larger than the 10 MiB limit per module \(--max-module-size\)/,
      );
      expect(result.code).toBe(1);
      expect(bigSent).toBeLessThan(40 * MiB);
      expect(result.peakMiB - floor.peakMiB).toBeLessThan(64);
      await expect(access(join(dir, "deps"))).rejects.toThrow();
    },
  );

  it("stop at --max-download-size for the whole run", async () => {
    const name = await script(
      `for (const n of [1, 2, 3]) {\n  try {\n    await import("${server.origin}/part" + n + ".ts");\n    console.log("part", n);\n  } catch (error) {\n    console.log((error as Error).name, (error as Error).message);\n  }\n}\n`,
    );
    const result = await runKiln(
      ["--cachedir", cache(), "--allow-import", "--max-download-size=1", name],
      work,
    );
    expect(result.stdout).toMatch(
      /^part 1\nRangeError import "http:\/\/127\.0\.0\.1:\d+\/part2\.ts" passes the 1 MiB limit of downloads per run \(--max-download-size\)\nRangeError /,
    );
  });
});

describe("timers", () => {
  it.runIf(canMeasureMemory)(
    "a million pending timers end the run at --max-timers with a message, not a host crash",
    async () => {
      const name = await script(
        "for (let i = 0; i < 1_000_000; i++) setTimeout(() => {}, 100_000);\nconsole.log('started');\n",
      );
      const result = await runKilnMeasured(["--cachedir", cache(), "--memory-limit", "32", name], work);
      expect(result.signal).toBeNull();
      expect(result.stderr).toBe("error: the script has more than 100000 pending timers (--max-timers)\n");
      expect(result.code).toBe(1);
      expect(result.peakMiB).toBeLessThan(300);
    },
  );

  it("a lower --max-timers holds; timers that fire make room again", async () => {
    const name = await script(
      "let fired = 0;\nfor (let i = 0; i < 25; i++) setTimeout(() => fired++, 0);\nsetTimeout(() => { for (let i = 0; i < 25; i++) setTimeout(() => fired++, 0); setTimeout(() => console.log('fired', fired), 5); }, 20);\n",
    );
    expect((await runKiln(["--cachedir", cache(), "--max-timers=60", name], work)).stdout).toBe("fired 50\n");
    const over = await runKiln(["--cachedir", cache(), "--max-timers=20", name], work);
    expect(over.stderr).toBe("error: the script has more than 20 pending timers (--max-timers)\n");
    expect(over.code).toBe(1);
  });
});

describe("output and busy scripts", () => {
  it.runIf(canMeasureMemory)("output nobody reads holds the script back, not the host's memory", async () => {
    const name = await script(
      'const s = "x".repeat(1 << 20);\nfor (let i = 0; i < 100; i++) console.log(s);\n',
    );
    const report = join(work, `rss-${name}`);
    const child = spawn(
      "/usr/bin/time",
      [
        "-o",
        report,
        "-f",
        "%M",
        process.execPath,
        "--no-node-snapshot",
        kilnRunBin,
        "--cachedir",
        cache(),
        name,
      ],
      { cwd: work, stdio: ["ignore", "pipe", "pipe"] },
    );
    // Nobody reads for three seconds, then everything is read.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    let bytes = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.stdout.resume();
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(bytes).toBe(100 * (MiB + 1));
    const peakMiB = Number((await readFile(report, "utf8")).trim().split("\n").pop()) / 1024;
    expect(peakMiB).toBeLessThan(200);
  });

  it.runIf(canMeasureMemory)(
    "intervals firing while the script is busy do not pile up in the host",
    async () => {
      const name = await script(
        "for (let i = 0; i < 20000; i++) setInterval(() => {}, 1);\nsetTimeout(() => { for (;;) {} }, 50);\n",
      );
      const result = await runKilnMeasured(["--cachedir", cache(), "--timeout", "5", name], work);
      expect(result.stderr).toBe("error: script timed out after 5 s (--timeout)\n");
      expect(result.peakMiB).toBeLessThan(250);
    },
  );
});

describe("fetch", () => {
  it("refuses fetches beyond 64 in flight, and the rest complete", async () => {
    const name = await script(
      `const results = await Promise.allSettled(Array.from({ length: 100 }, () => fetch("${server.origin}/slow").then((r) => r.text())));\nconst ok = results.filter((r) => r.status === "fulfilled").length;\nconst refused = results.filter((r) => r.status === "rejected" && /already in flight/.test(String(r.reason.message)));\nconsole.log(ok, refused.length, refused[0]?.reason.name);\n`,
    );
    const result = await runKiln(["--cachedir", cache(), "--allow-net", name], work);
    expect(result.stdout).toBe("64 36 RangeError\n");
  });

  it("refuses a body larger than --max-fetch-size", async () => {
    const name = await script(
      `try { await fetch("${server.origin}/huge"); } catch (error) { console.log((error as Error).name, (error as Error).message); }\nconsole.log((await (await fetch("${server.origin}/slow")).text()));\n`,
    );
    const result = await runKiln(["--cachedir", cache(), "--allow-net", "--max-fetch-size=1", name], work);
    expect(result.stdout).toMatch(
      /^RangeError fetch "http:\/\/127\.0\.0\.1:\d+\/huge": the response body is larger than 1048576 bytes \(--max-fetch-size\)\nslow\n$/,
    );
  });
});

describe("tricks on the error machinery", () => {
  it("a throwing Error.prepareStackTrace, a poisoned Symbol.species and getters still end in a clean exit 1", async () => {
    const name = await script(
      [
        "Error.prepareStackTrace = () => ({ toString() { throw new Error('toString'); } });",
        "Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('species'); } });",
        "Object.defineProperty(Object.prototype, 'stack', { get() { throw new Error('getter'); }, configurable: true });",
        "Object.defineProperty(Object.prototype, 'message', { get() { return { toString() { throw 1; } }; }, configurable: true });",
        "throw new Error('boom');",
      ].join("\n"),
    );
    const result = await runKiln(["--cachedir", cache(), "--timeout", "10", name], work);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: /);
  });

  it("a thrown non-Error with hostile getters is reported without running them in the host", async () => {
    const name = await script(
      "throw { get message() { for (;;) {} }, get stack() { for (;;) {} }, toString() { return 'plain object'; } };\n",
    );
    const result = await runKiln(["--cachedir", cache(), "--timeout", "10", name], work);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: Uncaught { message: [Getter], stack: [Getter], toString: [Function: toString] }\n",
    );
  });
});

describe("a runtime that breaks the message limits", () => {
  const helper = fileURLToPath(new URL("./helpers/oversize-runtime.mjs", import.meta.url));

  it("a batch over 16 MiB ends the run with a message", async () => {
    const result = await runNode(helper, ["batch"], work);
    expect(result.stderr).toBe(`error: the runtime sent ${20 * MiB} bytes at once, more than ${16 * MiB}\n`);
    expect(result.code).toBe(1);
  });

  it("a message over 1 MiB ends the run with a message", async () => {
    const result = await runNode(helper, ["frame"], work);
    expect(result.stderr).toBe(`error: the runtime sent a message larger than ${MiB} bytes\n`);
    expect(result.code).toBe(1);
  });

  it("a request over 1 MiB is answered with an ERROR, not decoded", async () => {
    const result = await runNode(helper, ["request"], work);
    expect(result.stdout).toMatch(/^answered \d+\n$/);
    expect(result.stderr).toBe(
      "error: script timed out after 5 s (--timeout)\nnote: the host refused 1 message from the runtime during this run, the first with ProtocolError: a request of 2097152 bytes is over the limit\n",
    );
  });
});
