import { error, fetchRes, type Msg } from "@kiln/protocol";
import { errorText, HostError } from "./errors.js";

/**
 * The host's side of FETCH_REQ (DECISIONS.md item 15): a GET with Node's fetch, only with
 * `--allow-net`. Answers FETCH_RES with status, `Name: value` header lines and body, or ERROR
 * carrying the request's id in `fetch_res_id`.
 */
export class HostFetcher {
  constructor(
    private readonly allowNet: boolean,
    private readonly signal?: AbortSignal,
  ) {}

  /** Performs FETCH_REQ `id` and returns the answer; never throws. */
  async fetch(id: number, url: string): Promise<Msg> {
    try {
      const target = this.#check(url);
      let response: Response;
      try {
        response = await fetch(target, { redirect: "follow", signal: this.signal });
      } catch (cause) {
        const reason = (cause as { cause?: { message?: string } }).cause?.message ?? (cause as Error).message;
        throw new HostError("NetworkError", `fetch "${url}" failed: ${reason}`);
      }
      const headerLines = [...response.headers].map(([name, value]) => `${name}: ${value}`);
      const body = new Uint8Array(await response.arrayBuffer());
      return fetchRes({ id, status: response.status, headerLines, body });
    } catch (failure) {
      return error({ error: errorText(failure), fetchResId: id });
    }
  }

  #check(url: string): URL {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new HostError("TypeError", `invalid URL "${url}"`);
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new HostError("TypeError", `fetch supports http: and https: URLs, not "${target.protocol}"`);
    }
    if (!this.allowNet) {
      throw new HostError(
        "PermissionDenied",
        `requires net access to "${target.host}", run again with the --allow-net flag`,
      );
    }
    return target;
  }
}
