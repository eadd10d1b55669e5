import type { KilnHeaders } from "./headers.js";

/** The `Response` that `fetch` resolves to: status, headers and a body readable once. */
export class KilnResponse {
  readonly status: number;
  readonly statusText = "";
  readonly headers: KilnHeaders;
  readonly url: string;
  readonly type = "basic";
  readonly redirected = false;
  #body: Uint8Array;
  #used = false;

  constructor(body: Uint8Array, init: { status: number; headers: KilnHeaders; url: string }) {
    this.#body = body;
    this.status = init.status;
    this.headers = init.headers;
    this.url = init.url;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  #consume(): Uint8Array {
    if (this.#used) throw new TypeError("the body of this response has already been read");
    this.#used = true;
    const body = this.#body;
    this.#body = new Uint8Array(0);
    return body;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = this.#consume();
    return body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return this.#consume().slice();
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this.#consume());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
