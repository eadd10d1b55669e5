import { readFile } from "node:fs/promises";
import { codeFetchRes, type Msg } from "@kiln/protocol";
import { HostError } from "../errors.js";
import type { CompileCache } from "./compile-cache.js";
import type { RemoteModules } from "./remote-cache.js";
import { moduleNameOf, resolveSpecifier } from "./resolve.js";

/** The host's side of CODE_FETCH and CODE_CACHE: resolving, reading, downloading and caching modules. */
export class ModuleService {
  constructor(
    private readonly compileCache: CompileCache,
    private readonly remote: RemoteModules,
  ) {}

  /** Answers CODE_FETCH with CODE_FETCH_RES, including cached output when there is some. */
  async codeFetch(specifier: string, containingFile: string): Promise<Msg> {
    const resolved = resolveSpecifier(specifier, containingFile);
    let filename: string;
    let source: string;
    if (resolved.kind === "file") {
      filename = resolved.path;
      source = await readLocal(filename, containingFile);
    } else {
      ({ filename, source } = await this.remote.load(resolved.url));
    }
    const outputCode = await this.compileCache.get(filename, source);
    return codeFetchRes({ moduleName: moduleNameOf(resolved), filename, sourceCode: source, outputCode });
  }

  /** Handles CODE_CACHE: stores the runtime's compiled output for this filename and source. */
  async codeCache(filename: string, sourceCode: string, outputCode: string): Promise<void> {
    await this.compileCache.set(filename, sourceCode, outputCode);
  }
}

async function readLocal(filename: string, containingFile: string): Promise<string> {
  try {
    return await readFile(filename, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") {
      throw new HostError("NotFound", `cannot find module "${filename}" imported from "${containingFile}"`);
    }
    throw error;
  }
}
