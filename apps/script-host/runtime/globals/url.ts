declare const require: (id: string) => unknown;

/** The two classes whatwg-url exports, as the runtime uses them. */
type WhatwgUrl = { URL: new (url: string, base?: string) => { href: string }; URLSearchParams: unknown };
let whatwg: WhatwgUrl | undefined;

/**
 * The WHATWG `URL` and `URLSearchParams` (from the whatwg-url package, the reference
 * implementation). Loaded on first use, so scripts that never touch URL do not pay for its tables.
 */
export function loadUrl(): WhatwgUrl {
  whatwg ??= require("whatwg-url") as WhatwgUrl;
  return whatwg;
}
