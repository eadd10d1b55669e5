import { error, fetchRes, type Msg } from "@kiln/protocol/wire";
import { errorText, HostError } from "./errors.js";
import type { Permissions } from "./permissions.js";

/** What one run's fetches may hold in the host at once. */
export interface FetchLimits {
  /** Fetches in flight at once; more are refused until one settles. */
  readonly maxInFlight: number;
  /** The largest response body, in bytes; a larger one fails the fetch. */
  readonly maxBodyBytes: number;
  /** Response bytes all fetches in flight may hold together. */
  readonly maxBufferedBytes: number;
}

const MAX_REDIRECTS = 20;

/**
 * The host's side of FETCH_REQ (decision 15, docs/decisions.md): a GET with Node's fetch, only to hosts
 * `--allow-net` grants, every redirect hop checked again. Answers FETCH_RES with status,
 * `Name: value` header lines and body, or ERROR carrying the request's id in `fetch_res_id`.
 * Bodies are read up to a limit and at most a fixed number of fetches run at once, so what the
 * host holds for a script's fetches is bounded.
 */
export class HostFetcher {
  #inFlight = 0;
  /** Response bytes held by the fetches in flight. */
  #buffered = 0;

  constructor(
    private readonly permissions: Permissions,
    private readonly limits: FetchLimits,
    private readonly signal?: AbortSignal,
  ) {}

  /** Performs FETCH_REQ `id` and returns the answer; never throws. */
  async fetch(id: number, url: string): Promise<Msg> {
    if (this.#inFlight >= this.limits.maxInFlight) {
      return error({
        error: `RangeError: fetch "${url}" refused: ${this.limits.maxInFlight} fetches are already in flight`,
        fetchResId: id,
      });
    }
    this.#inFlight++;
    try {
      const response = await this.#get(this.#parse(url), url);
      const headerLines = [...response.headers].map(([name, value]) => `${name}: ${value}`);
      const body = await this.#readBody(response, url);
      return fetchRes({ id, status: response.status, headerLines, body });
    } catch (failure) {
      return error({ error: errorText(failure), fetchResId: id });
    } finally {
      this.#inFlight--;
    }
  }

  #parse(url: string): URL {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new HostError("TypeError", `invalid URL "${url}"`);
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new HostError("TypeError", `fetch supports http: and https: URLs, not "${target.protocol}"`);
    }
    return target;
  }

  async #get(start: URL, asked: string): Promise<Response> {
    let url = start;
    for (let hop = 0; ; hop++) {
      this.permissions.checkNet(url);
      let response: Response;
      try {
        response = await fetch(url, { redirect: "manual", signal: this.signal });
      } catch (cause) {
        const reason = (cause as { cause?: { message?: string } }).cause?.message ?? (cause as Error).message;
        throw new HostError("NetworkError", `fetch "${asked}" failed: ${reason}`);
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location || hop >= MAX_REDIRECTS)
        return response;
      await response.body?.cancel();
      url = this.#parse(new URL(location, url).href);
    }
  }

  async #readBody(response: Response, asked: string): Promise<Uint8Array> {
    const tooLarge = () =>
      new HostError(
        "RangeError",
        `fetch "${asked}": the response body is larger than ${this.limits.maxBodyBytes} bytes (--max-fetch-size)`,
      );
    if (Number(response.headers.get("content-length") ?? 0) > this.limits.maxBodyBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    if (!reader) return new Uint8Array(0);
    try {
      return await this.#readChunks(reader, chunks, asked, tooLarge, (bytes) => {
        size += bytes;
        this.#buffered += bytes;
        return size;
      });
    } finally {
      this.#buffered -= size;
    }
  }

  async #readChunks(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    chunks: Uint8Array[],
    asked: string,
    tooLarge: () => HostError,
    grow: (bytes: number) => number,
  ): Promise<Uint8Array> {
    let size = 0;
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (cause) {
        throw new HostError("NetworkError", `fetch "${asked}" failed: ${(cause as Error).message}`);
      }
      if (next.done) break;
      size = grow(next.value.byteLength);
      if (size > this.limits.maxBodyBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      if (this.#buffered > this.limits.maxBufferedBytes) {
        await reader.cancel().catch(() => {});
        throw new HostError(
          "RangeError",
          `fetch "${asked}": the responses in flight hold more than ${this.limits.maxBufferedBytes} bytes together`,
        );
      }
      chunks.push(next.value);
    }
    return Buffer.concat(chunks, size);
  }
}
