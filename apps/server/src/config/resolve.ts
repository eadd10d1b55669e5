import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Settings } from "@kiln/domain";
import type { KilnEnvironment } from "../env.js";
import { applyEnvOverrides, parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

/** The global flags every command takes, as Forgejo's do. */
export interface GlobalFlags {
  readonly config?: string;
  readonly workPath?: string;
}

/** Settings plus where they came from. */
export interface ResolvedConfig {
  readonly settings: Settings;
  /** The app.ini that was read, or undefined when defaults and the environment were used. */
  readonly configFile: string | undefined;
  readonly warnings: readonly string[];
}

/**
 * Finds and reads the configuration: the work path is `--work-path`, else `KILN_WORK_DIR`, else
 * the current directory; the file is `--config`, else `<work-path>/custom/conf/app.ini` when it
 * exists. Environment overrides apply on top, then `--port`.
 */
export function resolveConfig(flags: GlobalFlags & { port?: number }, env: KilnEnvironment): ResolvedConfig {
  const workPath = resolve(flags.workPath ?? env.workDir ?? process.cwd());
  let configFile: string | undefined;
  if (flags.config) {
    configFile = resolve(flags.config);
    if (!existsSync(configFile)) throw new ConfigError(`config file ${configFile} does not exist`);
  } else {
    const candidate = resolve(workPath, "custom/conf/app.ini");
    if (existsSync(candidate)) configFile = candidate;
  }
  const sections = configFile ? parseIni(readFileSync(configFile, "utf8"), configFile) : new Map();
  applyEnvOverrides(sections, env.overrides);
  const warnings: string[] = [];
  const settings = loadSettings(sections, {
    workPath,
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(env.databaseUrl ? { databaseUrl: env.databaseUrl } : {}),
    warn: (m) => warnings.push(m),
  });
  return { settings, configFile, warnings };
}
