/**
 * A scripted visitor for `app.request()`: keeps cookies, posts url-encoded forms, never follows
 * redirects (tests read `Location`), and reads fields from the pages it gets.
 */
export class Browser {
  readonly #cookies = new Map<string, string>();

  constructor(
    readonly origin: string,
    private readonly fetcher: (url: string, init: RequestInit) => Promise<Response>,
  ) {}

  /** The cookies held, `name=value; …`. */
  cookieHeader(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.send("GET", path, undefined, headers);
  }

  post(
    path: string,
    fields: Readonly<Record<string, string>>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    return this.send("POST", path, new URLSearchParams(fields).toString(), headers);
  }

  async send(method: string, path: string, body?: string, extra: Record<string, string> = {}): Promise<Page> {
    const headers: Record<string, string> = { ...extra };
    if (this.#cookies.size > 0) headers.cookie = this.cookieHeader();
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await this.fetcher(new URL(path, this.origin).href, {
      method,
      headers,
      redirect: "manual",
      ...(body !== undefined ? { body } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a));
      if (expired || value === "") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return new Page(res.status, res.headers, await res.text());
  }
}

/** A response as the visitor got it. */
export class Page {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly html: string,
  ) {}

  get location(): string {
    return this.headers.get("location") ?? "";
  }

  /** The value of a form field (`<input … name="x" value="…">`), unescaped. */
  field(name: string): string {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(this.html);
    if (!m) throw new Error(`no field ${name} in page:\n${this.html}`);
    return (m[1] ?? "")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  }
}
