import { spawn } from "node:child_process";
import { constants, openSync, rmSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseRefUpdateLines } from "./parse-push.js";
import type { RefUpdate } from "./push-policy.js";

/** The environment variable naming the directory of the FIFOs the pre-receive hook talks to the server through. */
export const PUSH_HOOK_ENV = "KILN_PUSH_HOOK";

/** The quarantine variables the hook hands over, in the order it writes them. */
export const HOOK_OBJECT_VARIABLES = [
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_QUARANTINE_PATH",
] as const;

/** What the pre-receive hook asks the server to judge. */
export interface HookRequest {
  /**
   * The hook's quarantine environment (only the variables git set): until the hook accepts, the
   * pushed objects are in the quarantine, and git commands see them only with these.
   */
  readonly objectEnv: Readonly<Record<string, string>>;
  /** The ref updates of the push, as git gave them to the hook. */
  readonly updates: readonly RefUpdate[];
}

/** Judges a push for the hook: the refusal messages, none to accept it. */
export type HookJudge = (request: HookRequest) => Promise<readonly string[]>;

/** The most bytes one request may carry (a ref update line is about 130 bytes). */
const MAX_REQUEST = 16 * 1024 * 1024;

/** How long a hook that started its request may take to finish it. */
const REQUEST_TIMEOUT_MS = 60_000;

/** The request ends with its fourth NUL: three after the variables, one after the ref update lines. */
const REQUEST_FIELDS = HOOK_OBJECT_VARIABLES.length + 1;

/** Makes FIFOs only this user may open (Node has no mkfifo; the command is POSIX). */
function makeFifos(paths: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("mkfifo", ["-m", "600", ...paths], { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo exited with ${code}`))));
  });
}

/** How many channels' FIFOs one `mkfifo` makes ahead. */
const FIFO_BATCH = 16;

/** Channel directories with their FIFOs made and not yet used, each handed out once. */
const spareDirs: string[] = [];

let sparesRemovedAtExit = false;

/** The channel directories made ahead and not used yet (for tests that look for leftovers). */
export function spareChannelDirs(): readonly string[] {
  return [...spareDirs];
}

function isFifo(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFIFO() ?? false;
}

/**
 * A private directory (mode 0700) holding the FIFOs `request` and `verdict`, used by one channel.
 * They are made {@link FIFO_BATCH} at a time with one `mkfifo`: starting a process from a large
 * server blocks its event loop for tens of milliseconds (the fork copies its page tables), which
 * each push would otherwise pay. Spares left at exit are removed.
 */
async function channelDir(): Promise<string> {
  // A spare whose FIFOs went (a temporary-files cleaner) is skipped.
  for (let spare = spareDirs.pop(); spare !== undefined; spare = spareDirs.pop()) {
    if (isFifo(join(spare, "request")) && isFifo(join(spare, "verdict"))) return spare;
    rmSync(spare, { recursive: true, force: true });
  }
  const dirs = await Promise.all(
    Array.from({ length: FIFO_BATCH }, () => mkdtemp(join(tmpdir(), "kiln-hook-"))),
  );
  try {
    await makeFifos(dirs.flatMap((dir) => [join(dir, "request"), join(dir, "verdict")]));
  } catch (error) {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  if (!sparesRemovedAtExit) {
    sparesRemovedAtExit = true;
    process.once("exit", () => {
      for (const dir of spareDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });
  }
  const [mine, ...rest] = dirs as [string, ...string[]];
  spareDirs.push(...rest);
  return mine;
}

function parseRequest(bytes: Buffer): HookRequest {
  const fields = bytes.toString("utf8").split("\0");
  const objectEnv: Record<string, string> = {};
  for (const [index, name] of HOOK_OBJECT_VARIABLES.entries()) {
    const value = fields[index] ?? "";
    if (value !== "") objectEnv[name] = value;
  }
  return { objectEnv, updates: parseRefUpdateLines(fields[HOOK_OBJECT_VARIABLES.length] ?? "") };
}

/** Destroys `socket` and resolves once its file descriptor is closed. */
function destroyed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.closed) return resolve();
    socket.once("close", () => resolve());
    socket.destroy();
  });
}

/** The verdict as the hook reads it: `ok` or `refuse`, then one message per line. */
function verdictText(messages: readonly string[]): string {
  const lines = messages.flatMap((message) => message.split("\n"));
  return `${messages.length === 0 ? "ok" : "refuse"}\n${lines.map((line) => `${line}\n`).join("")}`;
}

/**
 * Opens the channel of one push's pre-receive hook: an unused private directory (mode 0700) with
 * two FIFOs. The hook (a `sh` script, so a push starts no interpreter) writes to `request` its
 * quarantine variables and ref update lines, and reads from `verdict` what `judge` answered.
 *
 * The server holds both FIFOs open read-write and non-blocking (Linux defines that for FIFOs,
 * POSIX leaves it open): no open ever waits for the peer, so no thread blocks when git never runs
 * the hook, and the hook never waits to open either. The request therefore ends with a NUL rather
 * than end-of-file. `close()` (once git has exited) removes the directory at once and resolves
 * when both ends are closed; a hook still waiting then reads end-of-file and refuses.
 */
export async function openHookChannel(judge: HookJudge): Promise<{ dir: string; close(): Promise<void> }> {
  const dir = await channelDir();
  let reader: Socket | undefined;
  let writer: Socket | undefined;
  let closing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const close = () => {
    closing ??= (async () => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([reader, writer].map((socket) => socket && destroyed(socket)));
    })();
    return closing;
  };
  try {
    const requestPath = join(dir, "request");
    const verdictPath = join(dir, "verdict");
    const flags = constants.O_RDWR | constants.O_NONBLOCK;
    reader = new Socket({ fd: openSync(requestPath, flags), readable: true, writable: false });
    writer = new Socket({ fd: openSync(verdictPath, flags), readable: false, writable: true });
  } catch (error) {
    await close();
    throw error;
  }
  const output = writer;
  let answered = false;
  // The first verdict wins; later data (or a second hook) is not read.
  const answer = (verdict: () => Promise<readonly string[]> | readonly string[]) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    reader?.destroy();
    Promise.resolve()
      .then(verdict)
      .catch((error: unknown) => [`push refused: internal error in pre-receive hook: ${String(error)}`])
      .then((messages) => {
        if (!closing) output.end(verdictText(messages), () => output.destroy());
      });
  };
  const chunks: Buffer[] = [];
  let size = 0;
  let nuls = 0;
  reader.on("error", () => {});
  writer.on("error", () => {});
  reader.on("data", (chunk: Buffer) => {
    if (size === 0) {
      timer = setTimeout(
        () => answer(() => ["push refused: the pre-receive hook did not finish its request in time"]),
        REQUEST_TIMEOUT_MS,
      );
    }
    size += chunk.length;
    if (size > MAX_REQUEST) return answer(() => ["push refused: the push updates too many refs"]);
    chunks.push(chunk);
    for (let at = chunk.indexOf(0); at >= 0; at = chunk.indexOf(0, at + 1)) nuls++;
    if (nuls >= REQUEST_FIELDS) answer(() => judge(parseRequest(Buffer.concat(chunks))));
  });
  return { dir, close };
}
