import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex as sha256 } from "../hash.js";
import { writeFileAtomic } from "./atomic-write.js";
import type { ModuleCompiler } from "./compiler.js";

/** The first line of every entry: what it was made from and the digest of the rest. */
const HEADER =
  /^\/\/ kiln-compile-cache v1 compiler=(\S+) module=([0-9a-f]{64}) source=([0-9a-f]{64}) digest=([0-9a-f]{64})\n/;

/**
 * Compiled output on disk, `<cachedir>/gen/<key>.js`. The key is a hash of the compiler's
 * identity (SWC's version and every option), the module's name and a hash of its source, so
 * output made by another compiler, for another module or from other source is never served.
 * Only the host writes entries, from its own compiles: nothing a script sends (CODE_CACHE
 * included) reaches this cache, so no run can change what another run executes. Each entry
 * starts with a header naming its inputs and a SHA-256 digest of the output; an entry that does
 * not match on read (edited, truncated, or for other inputs) is compiled again and replaced.
 * Entries are written to a temporary file and renamed into place.
 */
export class CompileCache {
  readonly #dir: string;

  /**
   * `defer`: when given, a new entry is written in the background and the write handed to it
   * (the host waits for such writes before it exits), so the compiled module reaches the runtime
   * without waiting for the disk; a failed write is then only logged. Without it, `output` waits
   * for the write.
   */
  constructor(
    cacheDir: string,
    private readonly compiler: ModuleCompiler,
    private readonly log: (line: string) => void = () => {},
    private readonly defer?: (write: Promise<void>) => void,
  ) {
    this.#dir = join(cacheDir, "gen");
  }

  /** The cache file of a module, from its name and source. */
  pathOf(moduleName: string, source: string): string {
    const key = sha256(`${this.compiler.id}\0${moduleName}\0${this.#sourceHash(source)}`);
    return join(this.#dir, `${key}.js`);
  }

  /** The last source hashed and its hash: a module's source is hashed for its path and its header. */
  #lastSource: string | undefined;
  #lastSourceHash = "";

  #sourceHash(source: string): string {
    if (source !== this.#lastSource) {
      this.#lastSourceHash = sha256(source);
      this.#lastSource = source;
    }
    return this.#lastSourceHash;
  }

  /**
   * Called with a module the run will ask for first (the main module): when it has no cache entry,
   * the compiler gets ready for it now, while the isolate starts.
   */
  prepare(moduleName: string, source: string): void {
    if (!existsSync(this.pathOf(moduleName, source))) this.compiler.prepare?.(source);
  }

  /**
   * The compiled output of a module: from the cache when a valid entry exists, else compiled now
   * and stored. `compiled` tells which (the protocol's CODE_FETCH_RES reports it in --debug).
   */
  async output(moduleName: string, source: string): Promise<{ code: string; compiled: boolean }> {
    const path = this.pathOf(moduleName, source);
    const cached = await this.#read(path, moduleName, source);
    if (cached !== undefined) return { code: cached, compiled: false };
    const code = await this.compiler.compile(moduleName, source);
    this.log(`compiled ${moduleName}`);
    const write = writeFileAtomic(path, this.#header(moduleName, source, code) + code);
    if (this.defer) {
      this.defer(write.catch((error) => this.log(`compile cache: ${path} not written: ${error.message}`)));
    } else {
      await write;
    }
    return { code, compiled: true };
  }

  #header(moduleName: string, source: string, code: string): string {
    return `// kiln-compile-cache v1 compiler=${this.compiler.id} module=${sha256(moduleName)} source=${this.#sourceHash(source)} digest=${sha256(code)}\n`;
  }

  async #read(path: string, moduleName: string, source: string): Promise<string | undefined> {
    let entry: string;
    try {
      entry = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const header = HEADER.exec(entry);
    const code = header ? entry.slice(header[0].length) : "";
    if (header && header[0] === this.#header(moduleName, source, code)) return code;
    this.log(`compile cache: ${path} does not match its header; compiling again`);
    return undefined;
  }
}
