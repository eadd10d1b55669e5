import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { HostError } from "../errors.js";
import { writeFileAtomic } from "./atomic-write.js";

/**
 * Where a remote module lives in the cache: `<cachedir>/deps/<scheme>/<host>[_<port>]/<path>`.
 * A path ending in "/" gets the file name `_index`; a query string adds `_<hash>` to the name.
 */
export function depsPathOf(cacheDir: string, url: URL): string {
  const host = url.port ? `${url.hostname}_${url.port}` : url.hostname;
  let path = decodeURIComponent(url.pathname).replace(/\\/g, "/");
  if (path.endsWith("/")) path += "_index";
  if (url.search) path += `_${createHash("sha256").update(url.search).digest("hex").slice(0, 16)}`;
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== "." && segment !== "..");
  return join(cacheDir, "deps", url.protocol.replace(":", ""), host, ...segments);
}

/**
 * Downloads remote modules into the cache directory once and serves them from there afterwards
 * (DECISIONS.md item 16). With `reload`, each URL is downloaded again, once per run. A non-2xx
 * answer is an error and nothing is written.
 */
export class RemoteModules {
  readonly #fetchedThisRun = new Map<string, Promise<string>>();

  constructor(
    private readonly cacheDir: string,
    private readonly reload: boolean,
    private readonly log: (line: string) => void = () => {},
    private readonly signal?: AbortSignal,
  ) {}

  /** The local file and source of a remote module, downloading it when needed. */
  async load(url: URL): Promise<{ filename: string; source: string }> {
    const filename = depsPathOf(this.cacheDir, url);
    let source = this.#fetchedThisRun.get(url.href);
    if (source === undefined) {
      source = this.#readOrDownload(url, filename);
      this.#fetchedThisRun.set(url.href, source);
    }
    return { filename, source: await source };
  }

  async #readOrDownload(url: URL, filename: string): Promise<string> {
    if (!this.reload) {
      try {
        return await readFile(filename, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    this.log(`Download ${url.href}`);
    let response: Response;
    try {
      response = await fetch(url, { redirect: "follow", signal: this.signal });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new HostError(
        "NetworkError",
        `import "${url.href}" failed: ${cause ?? (error as Error).message}`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new HostError(
        "NotFound",
        `import "${url.href}" failed: ${response.status} ${response.statusText}`.trim(),
      );
    }
    const source = await response.text();
    await writeFileAtomic(filename, source);
    return source;
  }
}
