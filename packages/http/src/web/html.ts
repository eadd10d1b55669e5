import type { AppContext } from "../env.js";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** A fragment of HTML already escaped, to tell apart from text that still needs it. */
export interface Html {
  readonly html: string;
}

/** Builds HTML from a template: interpolated strings are escaped, Html fragments and arrays of them are not. */
export function html(
  strings: TemplateStringsArray,
  ...values: (string | number | Html | readonly Html[])[]
): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    if (Array.isArray(value)) out += value.map((v: Html) => v.html).join("");
    else if (typeof value === "object") out += (value as Html).html;
    else out += escapeHtml(String(value));
    out += strings[i + 1] ?? "";
  });
  return { html: out };
}

/** A hidden form field. */
export function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/**
 * A whole page: minimal markup, no scripts. The policy forbids scripts and framing (the consent
 * page must not be clickjacked); forms may post anywhere, since the consent redirects to the client.
 */
export function page(c: AppContext, title: string, body: Html, status = 200): Response {
  const document = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - Kiln</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.75rem 0 .25rem}input[type=text],input[type=password]{width:100%;padding:.4rem}
button{margin-top:1rem;padding:.4rem 1rem}.error{color:#b00}code{word-break:break-all}</style>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;
  return new Response(document.html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
      "x-content-type-options": "nosniff",
    },
  });
}

/** A 303 redirect (after a form post, the browser follows with GET). */
export function seeOther(location: string, headers: Headers = new Headers()): Response {
  headers.set("location", location);
  headers.set("cache-control", "no-store");
  return new Response(null, { status: 303, headers });
}
