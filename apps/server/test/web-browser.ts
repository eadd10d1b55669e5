/**
 * A scripted browser for the HTML pages: keeps cookies, posts url-encoded forms, never follows
 * redirects (tests read `Location`), and reads hidden fields from the pages it gets.
 */
export class WebBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(
    public base: string,
    private readonly fetcher: (url: string, init: RequestInit) => Promise<Response> = (url, init) =>
      fetch(url, init),
  ) {}

  /** The cookies the browser holds, `name=value; …`. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** The value of one cookie. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async get(path: string): Promise<Page> {
    return this.send("GET", path);
  }

  async post(path: string, fields: Readonly<Record<string, string>>): Promise<Page> {
    return this.send("POST", path, new URLSearchParams(fields).toString());
  }

  private async send(method: string, path: string, body?: string): Promise<Page> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await this.fetcher(new URL(path, this.base).href, {
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
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return new Page(res.status, res.headers, await res.text());
  }
}

/** A response as the browser got it. */
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
    return unescapeHtml(m[1] ?? "");
  }

  /** The text of the element with this id. */
  text(id: string): string {
    const m = new RegExp(`id="${id}">([^<]*)<`).exec(this.html);
    if (!m) throw new Error(`no element #${id} in page:\n${this.html}`);
    return unescapeHtml(m[1] ?? "");
  }
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
