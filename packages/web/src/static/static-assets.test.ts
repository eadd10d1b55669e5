import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ICONS } from "./icons.js";
import { chooseEncoding, StaticAssets } from "./static-assets.js";

describe("static assets", () => {
  const assets = new StaticAssets("/kiln");

  it("names each file by a hash of its content, under the site's path", () => {
    expect(assets.url("style.css")).toMatch(/^\/kiln\/assets\/web\/style\.[0-9a-f]{12}\.css$/);
    expect(assets.url("app.js")).toMatch(/^\/kiln\/assets\/web\/app\.[0-9a-f]{12}\.js$/);
    expect(assets.url("icons.svg")).toMatch(/^\/kiln\/assets\/web\/icons\.[0-9a-f]{12}\.svg$/);
  });

  it("serves them compressed as the request accepts, immutable for a year", async () => {
    const name = assets.url("style.css").split("/").pop() ?? "";
    const plain = assets.serve(name, undefined);
    const css = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    expect(css.toString()).toContain("prefers-color-scheme: dark");

    const br = assets.serve(name, "gzip, deflate, br, zstd");
    expect(br.headers.get("content-encoding")).toBe("br");
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get("content-length"))).toBe(brBytes.length);
    expect(brBytes.length).toBeLessThan(css.length);
    expect(brotliDecompressSync(brBytes).equals(css)).toBe(true);

    const gz = assets.serve(name, "gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(css)).toBe(true);
  });

  it("answers 404 for any other name, an old hash included", () => {
    expect(assets.serve("style.000000000000.css", "br").status).toBe(404);
    expect(assets.serve("../package.json", undefined).status).toBe(404);
  });

  it("puts exactly the icons in use into the sprite", async () => {
    const name = assets.url("icons.svg").split("/").pop() ?? "";
    const svg = await assets.serve(name, undefined).text();
    const ids = [...svg.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual([...ICONS]);
  });

  it("chooses brotli, then gzip, honouring q=0 and *", () => {
    expect(chooseEncoding("")).toBe("identity");
    expect(chooseEncoding("gzip, br")).toBe("br");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("identity")).toBe("identity");
    expect(chooseEncoding("GZIP;Q=0.5")).toBe("gzip");
  });
});
