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
    allowNet: options.allowNet,
    reload: options.reload,
    debug: options.debug,
    cacheDir: options.cacheDir ?? join(homedir(), ".cache", "kiln"),
    memoryLimitMb: options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB,
    timeoutSeconds: options.timeoutSeconds,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
  return host.run();
}
