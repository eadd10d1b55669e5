import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built kiln-run binary that the tests run as a subprocess. */
export const kilnRunBin = fileURLToPath(new URL("../../bin/kiln-run.js", import.meta.url));

/** What a kiln-run process printed and how it exited. */
export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Runs `node --no-node-snapshot <script> ...args` in `cwd` and collects its output; with
 * `direct`, runs `script` itself as the command.
 */
export function runNode(
  script: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 30_000,
  { direct = false } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = direct
      ? [script, args]
      : [process.execPath, ["--no-node-snapshot", script, ...args]];
    const child = spawn(command, commandArgs, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ stdout, stderr, code, signal }));
  });
}

/** Runs the built `kiln-run` with these arguments (flags, script, script args) in `cwd`. */
export function runKiln(args: readonly string[], cwd: string, timeoutMs?: number): Promise<RunResult> {
  return runNode(kilnRunBin, args, cwd, timeoutMs);
}
