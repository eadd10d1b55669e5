/** What `kiln-run` was asked to do, parsed from its command line. */
export interface CliOptions {
  readonly allowNet: boolean;
  readonly reload: boolean;
  readonly debug: boolean;
  readonly help: boolean;
  /** Where remote modules and compiled output are cached; undefined means the default. */
  readonly cacheDir: string | undefined;
  readonly memoryLimitMb: number | undefined;
  readonly timeoutSeconds: number | undefined;
  /** The script followed by its own arguments (everything from the first non-flag on). */
  readonly argv: readonly string[];
}

/** A command line `kiln-run` cannot accept; the message says why. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

function positiveNumber(flag: string, value: string | undefined): number {
  const number = Number(value);
  if (value === undefined || value === "" || !Number.isFinite(number) || number <= 0) {
    throw new UsageError(
      `${flag} needs a positive number, got ${value === undefined ? "nothing" : `"${value}"`}`,
    );
  }
  return number;
}

/**
 * Parses `kiln-run [flags] script [args…]`. Flags are read only before the script; everything
 * after it, flags included, belongs to the script. `--flag=value` and `--flag value` both work.
 */
export function parseOptions(args: readonly string[]): CliOptions {
  let allowNet = false;
  let reload = false;
  let debug = false;
  let help = false;
  let cacheDir: string | undefined;
  let memoryLimitMb: number | undefined;
  let timeoutSeconds: number | undefined;
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      index++;
      break;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    const equals = arg.indexOf("=");
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    const inline = equals === -1 ? undefined : arg.slice(equals + 1);
    const value = () => inline ?? args[++index];
    switch (flag) {
      case "--allow-net":
        allowNet = true;
        break;
      case "--reload":
        reload = true;
        break;
      case "--debug":
        debug = true;
        break;
      case "-h":
      case "--help":
        help = true;
        break;
      case "--cachedir": {
        const dir = value();
        if (!dir) throw new UsageError("--cachedir needs a directory");
        cacheDir = dir;
        break;
      }
      case "--memory-limit":
        memoryLimitMb = positiveNumber(flag, value());
        break;
      case "--timeout":
        timeoutSeconds = positiveNumber(flag, value());
        break;
      default:
        throw new UsageError(`unknown flag ${flag} (see kiln-run --help)`);
    }
  }
  const argv = args.slice(index);
  if (!help && argv.length === 0) throw new UsageError("no script given (see kiln-run --help)");
  return { allowNet, reload, debug, help, cacheDir, memoryLimitMb, timeoutSeconds, argv };
}
