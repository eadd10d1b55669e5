import { homedir } from "node:os";
import { join } from "node:path";
import { ScriptHost } from "../host/script-host.js";
import { helpText } from "./help.js";
import { parseOptions, UsageError } from "./options.js";

/** The default memory limit of the isolate, in MB. */
export const DEFAULT_MEMORY_LIMIT_MB = 256;

/**
 * Runs `kiln-run` with the given command-line arguments and resolves to the process exit code.
 * Output goes to the process's stdout and stderr.
 */
export async function main(args: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`kiln-run: ${error.message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(helpText);
    return 0;
  }
  const host = new ScriptHost({
    argv: options.argv,
    cwd: process.cwd(),
    permissions: options.permissions,
    limits: options.limits,
    reload: options.reload,
    debug: options.debug,
    cacheDir: options.cacheDir ?? join(homedir(), ".cache", "kiln"),
    memoryLimitMb: options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB,
    timeoutSeconds: options.timeoutSeconds,
    stdout: stdout.write,
    stderr: stderr.write,
    outputBuffered: () => stdout.buffered() + stderr.buffered(),
    outputDrained: () => Promise.all([stdout.drained(), stderr.drained()]).then(() => {}),
    // Most scripts print: stdout is made while the isolate starts the script rather than at the
    // first console.log.
    prepareOutput: () => stdout.open(),
  });
  return host.run();
}

/**
 * process.stdout or process.stderr, created on first use: making one loads Node's stream and
 * socket modules (a few milliseconds under --no-node-snapshot), and most runs never write to
 * stderr.
 */
function lazyOutput(open: () => NodeJS.WriteStream) {
  let stream: NodeJS.WriteStream | undefined;
  let write: ((text: string) => void) | undefined;
  const opened = () => {
    if (write === undefined) {
      stream = open();
      write = writerTo(stream);
    }
    return write;
  };
  return {
    open: () => void opened(),
    write: (text: string) => opened()(text),
    buffered: () => stream?.writableLength ?? 0,
    drained: () => (stream ? drained(stream) : Promise.resolve()),
  };
}

const stdout = lazyOutput(() => process.stdout);
const stderr = lazyOutput(() => process.stderr);

/** Resolves when a stream has nothing waiting to be written (at once if it is closed). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}

/**
 * Writes to stdout or stderr, dropping output once the reader has gone away (EPIPE, as in
 * `kiln-run script.ts | head`) instead of crashing; the script runs on to its end.
 */
function writerTo(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}
