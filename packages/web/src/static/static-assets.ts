import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { iconSprite } from "./icons.js";

/** One static file, under its content-hashed name, with its compressed forms. */
interface Asset {
  readonly name: string;
  readonly type: string;
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

/** The source files, next to `dist/` and `src/` in the package. */
const SOURCES = new URL("../../assets/", import.meta.url);

/** Where the assets are served, under the site's path. */
export const ASSETS_PATH = "/assets/web";

const TYPES: Readonly<Record<string, string>> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
};

/**
 * The pages' style sheet, script and icon sprite, read once at start-up, named by a hash of their
 * content (`style.3f9a0c1b2d.css`) and compressed with brotli and gzip right away. A name changes
 * whenever its content does, so browsers may keep each file for a year without asking again.
 */
export class StaticAssets {
  readonly #byName = new Map<string, Asset>();
  readonly #urls = new Map<string, string>();

  constructor(base: string) {
    const files: [string, Buffer][] = [
      ["style.css", readFileSync(new URL("style.css", SOURCES))],
      ["app.js", readFileSync(new URL("app.js", SOURCES))],
      ["icons.svg", Buffer.from(iconSprite())],
    ];
    for (const [source, identity] of files) {
      const dot = source.lastIndexOf(".");
      const ext = source.slice(dot + 1);
      const hash = createHash("sha256").update(identity).digest("hex").slice(0, 12);
      const name = `${source.slice(0, dot)}.${hash}.${ext}`;
      this.#byName.set(name, {
        name,
        type: TYPES[ext] ?? "application/octet-stream",
        identity,
        gzip: gzipSync(identity, { level: 9 }),
        br: brotliCompressSync(identity, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
      });
      this.#urls.set(source, `${base}${ASSETS_PATH}/${name}`);
    }
  }

  /** The URL of a source file (`style.css`) under its hashed name. */
  url(source: "style.css" | "app.js" | "icons.svg"): string {
    return this.#urls.get(source) ?? "";
  }

  /** The uncompressed size in bytes of each source file, for page-weight measurements. */
  sizes(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [source, url] of this.#urls) {
      const asset = this.#byName.get(url.slice(url.lastIndexOf("/") + 1));
      if (asset) out[source] = asset.identity.length;
    }
    return out;
  }

  /**
   * The answer for `GET {ASSETS_PATH}/{name}`: the file in the best encoding the request accepts
   * (brotli, then gzip, else as is), cacheable for a year and immutable; 404 for any other name.
   */
  serve(name: string, acceptEncoding: string | undefined): Response {
    const asset = this.#byName.get(name);
    if (!asset)
      return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain" } });
    const encoding = chooseEncoding(acceptEncoding ?? "");
    const body = encoding === "br" ? asset.br : encoding === "gzip" ? asset.gzip : asset.identity;
    const headers: Record<string, string> = {
      "content-type": asset.type,
      "content-length": String(body.length),
      "cache-control": "public, max-age=31536000, immutable",
      vary: "accept-encoding",
      "x-content-type-options": "nosniff",
    };
    if (encoding !== "identity") headers["content-encoding"] = encoding;
    return new Response(new Uint8Array(body), { status: 200, headers });
  }
}

/**
 * The encoding to send, from an `Accept-Encoding` header (RFC 9110 §12.5.3): brotli when it is
 * acceptable, else gzip, else none. `q=0` refuses a coding; `*` stands for every coding not named.
 */
export function chooseEncoding(header: string): "br" | "gzip" | "identity" {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param);
      if (m) q = Number(m[1]);
    }
    weights.set(coding.trim(), Number.isFinite(q) ? q : 0);
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0 || (weights.get("x-gzip") ?? 0) > 0) return "gzip";
  return "identity";
}
