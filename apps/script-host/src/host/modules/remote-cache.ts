import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { HostError } from "../errors.js";
import { sha256Hex as sha256 } from "../hash.js";
import type { Permissions } from "../permissions.js";
import { writeFileAtomic } from "./atomic-write.js";

/** A host name safe as one directory name: letters, digits, dots and dashes, not starting with a dot. */
const PLAIN_HOST = /^[a-z0-9-][a-z0-9.-]*$/;

/**
 * Where a remote module lives in the cache, as Deno lays it out:
 * `<cachedir>/deps/<scheme>/<host>[_<port>]/<sha256(URL without its fragment)>`. Every URL has a file of its
 * own: nothing is decoded or dropped from the path, so two URLs never share a file (one run
 * cannot plant what another URL's import will read), and a host name that is not a plain name
 * (IPv6, `..`) is hashed too.
 */
export function depsPathOf(cacheDir: string, url: URL): string {
  const host = PLAIN_HOST.test(url.hostname) ? url.hostname : `_${sha256(url.hostname).slice(0, 32)}`;
  const dir = url.port ? `${host}_${url.port}` : host;
  // The whole URL but its fragment: `a.js?` and `a.js` are two URLs (`search` is "" for both).
  const [withoutFragment = ""] = url.href.split("#");
  return join(cacheDir, "deps", url.protocol.replace(":", ""), dir, sha256(withoutFragment));
}

/** How many bytes of remote modules one run may download: per module and in all. */
export interface DownloadLimits {
  readonly maxModuleBytes: number;
  readonly maxTotalBytes: number;
}

/** The most redirects a module download follows (each hop is checked against the permissions). */
const MAX_REDIRECTS = 10;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;

/**
 * Downloads remote modules into the cache directory once and serves them from there afterwards
 * (decision 16, docs/decisions.md). With `reload`, each URL is downloaded again, once per run. A non-2xx
 * answer is an error and nothing is written. Every URL, redirects included, must be allowed by
 * `--allow-import` or `--allow-net`; a download stops as soon as it passes the per-module or
 * per-run limit, and nothing of it is kept.
 */
export class RemoteModules {
  /** Loads in progress, by URL: concurrent imports of one URL share one read or download. */
  readonly #loading = new Map<string, Promise<string>>();
  /** URLs downloaded in this run: with --reload, each is downloaded once per run. */
  readonly #downloadedThisRun = new Set<string>();
  #downloaded = 0;

  constructor(
    private readonly cacheDir: string,
    private readonly reload: boolean,
    private readonly permissions: Permissions,
    private readonly limits: DownloadLimits,
    private readonly log: (line: string) => void = () => {},
    private readonly signal?: AbortSignal,
  ) {}

  /** The local file and source of a remote module, downloading it when needed. */
  async load(url: URL): Promise<{ filename: string; source: string }> {
    this.permissions.checkImport(url);
    const filename = depsPathOf(this.cacheDir, url);
    let source = this.#loading.get(url.href);
    if (source === undefined) {
      source = this.#readOrDownload(url, filename);
      this.#loading.set(url.href, source);
      // Only while it loads: the host keeps no module's source for the rest of the run.
      const forget = () => this.#loading.delete(url.href);
      source.then(forget, forget);
    }
    return { filename, source: await source };
  }

  async #readOrDownload(url: URL, filename: string): Promise<string> {
    if (!this.reload || this.#downloadedThisRun.has(url.href)) {
      try {
        const info = await stat(filename);
        if (info.isFile() && info.size <= this.limits.maxModuleBytes) return await readFile(filename, "utf8");
        if (info.isFile()) throw this.#tooLarge(url, "per-module");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    this.log(`Download ${url.href}`);
    const response = await this.#get(url);
    const bytes = await this.#readBounded(url, response);
    await writeFileAtomic(filename, bytes);
    this.#downloadedThisRun.add(url.href);
    return new TextDecoder().decode(bytes);
  }

  /** GETs `url`, following redirects by hand so that every hop is checked. */
  async #get(start: URL): Promise<Response> {
    let url = start;
    for (let hop = 0; ; hop++) {
      this.permissions.checkImport(url);
      let response: Response;
      try {
        response = await fetch(url, { redirect: "manual", signal: this.signal });
      } catch (error) {
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        throw new HostError(
          "NetworkError",
          `import "${start.href}" failed: ${cause ?? (error as Error).message}`,
        );
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) {
          throw new HostError("NetworkError", `import "${start.href}" failed: too many redirects`);
        }
        url = new URL(location, url);
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          throw new HostError(
            "TypeError",
            `import "${start.href}" redirects to unsupported "${url.protocol}"`,
          );
        }
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new HostError(
          "NotFound",
          `import "${start.href}" failed: ${response.status} ${response.statusText}`.trim(),
        );
      }
      return response;
    }
  }

  /** The body, read chunk by chunk and abandoned as soon as it passes a limit. */
  async #readBounded(url: URL, response: Response): Promise<Uint8Array> {
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > this.limits.maxModuleBytes) {
      await response.body?.cancel();
      throw this.#tooLarge(url, "per-module");
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    try {
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        size += next.value.byteLength;
        this.#downloaded += next.value.byteLength;
        if (size > this.limits.maxModuleBytes) throw this.#tooLarge(url, "per-module");
        if (this.#downloaded > this.limits.maxTotalBytes) throw this.#tooLarge(url, "per-run");
        chunks.push(next.value);
      }
    } catch (error) {
      await reader?.cancel().catch(() => {});
      if (error instanceof HostError) throw error;
      throw new HostError("NetworkError", `import "${url.href}" failed: ${(error as Error).message}`);
    }
    return Buffer.concat(chunks, size);
  }

  #tooLarge(url: URL, which: "per-module" | "per-run"): HostError {
    return which === "per-module"
      ? new HostError(
          "RangeError",
          `import "${url.href}" is larger than the ${mib(this.limits.maxModuleBytes)} limit per module (--max-module-size)`,
        )
      : new HostError(
          "RangeError",
          `import "${url.href}" passes the ${mib(this.limits.maxTotalBytes)} limit of downloads per run (--max-download-size)`,
        );
  }
}
