import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { codeFetchRes, type Msg } from "@kiln/protocol/wire";
import { HostError } from "../errors.js";
import type { Permissions } from "../permissions.js";
import type { CompileCache } from "./compile-cache.js";
import type { RemoteModules } from "./remote-cache.js";
import { moduleNameOf, resolveSpecifier } from "./resolve.js";

/**
 * The host's side of CODE_FETCH: resolving, checking, reading, downloading and compiling modules.
 * Every decision is the host's: the runtime names a specifier and the module that imports it, and
 * the host resolves it, checks the permissions of the result, reads or downloads it within its
 * size limit and compiles it (or takes its own cached compile). The importing module must be one
 * this host has served in this run (or the working directory, for the main module), so a runtime
 * cannot make up where an import comes from.
 */
export class ModuleService {
  readonly #served = new Set<string>();
  /** The main module's source, read ahead by {@link prepareMain}. */
  #early: { readonly path: string; readonly source: Promise<string> } | undefined;

  constructor(
    private readonly compileCache: CompileCache,
    private readonly remote: RemoteModules,
    private readonly permissions: Permissions,
    private readonly maxModuleBytes: number,
    private readonly cwd: string,
  ) {}

  /** Answers CODE_FETCH with CODE_FETCH_RES carrying the module's source and compiled output. */
  async codeFetch(specifier: string, containingFile: string): Promise<Msg> {
    const cwdDir = this.cwd.endsWith("/") ? this.cwd : `${this.cwd}/`;
    // The working directory only for the first import (the main module); after that, only a
    // module this run has served may be named as the importer.
    const fromCwd = containingFile === cwdDir && this.#served.size === 0;
    if (!fromCwd && !this.#served.has(containingFile)) {
      throw new HostError(
        "ProtocolError",
        `CODE_FETCH from "${containingFile}", which is not a module of this run`,
      );
    }
    const resolved = resolveSpecifier(specifier, containingFile);
    const moduleName = moduleNameOf(resolved);
    let filename: string;
    let source: string;
    if (resolved.kind === "file") {
      this.permissions.checkRead(resolved.path);
      filename = resolved.path;
      const early = fromCwd && this.#early?.path === filename ? this.#early.source : undefined;
      this.#early = undefined;
      source = await (early ?? this.#readLocal(filename, containingFile));
    } else {
      ({ filename, source } = await this.remote.load(resolved.url));
    }
    const { code } = await this.compileCache.output(moduleName, source);
    this.#served.add(moduleName);
    return codeFetchRes({ moduleName, filename, sourceCode: source, outputCode: code });
  }

  /**
   * A hint that the run will start with `specifier` (the main module, relative to the working
   * directory): when it is a local file without a compile-cache entry, the compiler gets ready
   * for it while the isolate starts. Never fails; the import itself is checked and served by
   * {@link codeFetch} as usual.
   */
  async prepareMain(specifier: string): Promise<void> {
    try {
      if (this.#served.size > 0) return;
      const cwdDir = this.cwd.endsWith("/") ? this.cwd : `${this.cwd}/`;
      const resolved = resolveSpecifier(specifier, cwdDir);
      if (resolved.kind !== "file") return;
      this.permissions.checkRead(resolved.path);
      // Read once: the main module's CODE_FETCH takes this read instead of reading again (the
      // same read it would make, with the same errors, since it names the same importer).
      const source = this.#readLocal(resolved.path, cwdDir);
      source.catch(() => {});
      this.#early = { path: resolved.path, source };
      this.compileCache.prepare(moduleNameOf(resolved), await source);
    } catch {
      // Only a hint: whatever failed here fails again, and is reported, when the runtime asks.
    }
  }

  /** Reads a local module, refusing one larger than the per-module limit before reading it. */
  async #readLocal(filename: string, containingFile: string): Promise<string> {
    // Synchronous: for the small files modules are, a blocking read is quicker than a round trip
    // through libuv's pool (and the runtime waits for the module either way).
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO in the folder must not hang the host waiting for a writer.
      fd = openSync(filename, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        throw new HostError("NotFound", `cannot find module "${filename}" imported from "${containingFile}"`);
      }
      throw error;
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) {
        throw new HostError("NotFound", `cannot find module "${filename}" imported from "${containingFile}"`);
      }
      if (info.size > this.maxModuleBytes) {
        throw new HostError(
          "RangeError",
          `module "${filename}" is larger than the limit of ${this.maxModuleBytes} bytes per module (--max-module-size)`,
        );
      }
      return readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  }
}
