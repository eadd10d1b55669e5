import type { HostLimits } from "../host/limits.js";
import { type Grant, type PermissionFlags, parseHostList } from "../host/permissions.js";

/** What `kiln-run` was asked to do, parsed from its command line. */
export interface CliOptions {
  /** `--allow-read`, `--allow-net`, `--allow-import` (`-A` grants all three). */
  readonly permissions: PermissionFlags;
  /** The host limits given on the command line; the rest keep their defaults. */
  readonly limits: Partial<HostLimits>;
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

/** A size flag given in MiB, as bytes. */
const mebibytes = (flag: string, value: string | undefined) =>
  Math.floor(positiveNumber(flag, value) * 1024 * 1024);

/**
 * A permission flag: bare grants everything; `--allow-x=a,b` grants a list. The list is only
 * read after `=`, never from the next argument (which is the script), as in Deno.
 */
function grant(flag: string, inline: string | undefined, parse: (value: string) => string[]): Grant {
  if (inline === undefined) return "all";
  try {
    const list = parse(inline);
    if (list.length === 0) throw new UsageError(`${flag}= needs at least one entry`);
    return list;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
}

const pathList = (value: string) =>
  value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");

/**
 * Parses `kiln-run [flags] script [args…]`. Flags are read only before the script; everything
 * after it, flags included, belongs to the script. `--flag=value` and `--flag value` both work
 * for flags that need a value.
 */
export function parseOptions(args: readonly string[]): CliOptions {
  let permissions: { allowRead: Grant; allowNet: Grant; allowImport: Grant } = {
    allowRead: undefined,
    allowNet: undefined,
    allowImport: undefined,
  };
  const limits: { -readonly [K in keyof HostLimits]?: HostLimits[K] } = {};
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
      case "-A":
      case "--allow-all":
        permissions = { allowRead: "all", allowNet: "all", allowImport: "all" };
        break;
      case "--allow-read":
        permissions.allowRead = grant(flag, inline, pathList);
        break;
      case "--allow-net":
        permissions.allowNet = grant(flag, inline, parseHostList);
        break;
      case "--allow-import":
        permissions.allowImport = grant(flag, inline, parseHostList);
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
      case "--max-module-size":
        limits.maxModuleBytes = mebibytes(flag, value());
        break;
      case "--max-download-size":
        limits.maxDownloadBytes = mebibytes(flag, value());
        break;
      case "--max-fetch-size":
        limits.maxFetchBytes = mebibytes(flag, value());
        break;
      case "--max-timers":
        limits.maxTimers = Math.floor(positiveNumber(flag, value()));
        break;
      default:
        throw new UsageError(`unknown flag ${flag} (see kiln-run --help)`);
    }
  }
  const argv = args.slice(index);
  if (!help && argv.length === 0) throw new UsageError("no script given (see kiln-run --help)");
  return { permissions, limits, reload, debug, help, cacheDir, memoryLimitMb, timeoutSeconds, argv };
}
