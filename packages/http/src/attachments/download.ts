import { hasScopes } from "@kiln/domain";
import { ANONYMOUS } from "@kiln/service";
import { identify } from "../auth.js";
import type { AppContext, Mount } from "../env.js";

/**
 * `GET {ROOT_URL}attachments/{uuid}`: an attachment's `browser_download_url` (Forgejo's
 * routers/web/repo/attachment.go ServeAttachment). The caller is identified as on the API (a
 * token, Basic auth); a token without `read:repository` and `read:issue` is taken as anonymous.
 * 404 unless the caller may read what the attachment is in; an external one redirects; a stored
 * one streams from the blob store, whole or one `Range`, and counts as downloaded.
 */
export function mountAttachmentDownloads(mount: Mount): void {
  mount("get", "/attachments/:uuid", async (c) => {
    const identifying = identify(c);
    if (identifying) await identifying;
    const principal = c.get("principal");
    const scoped =
      !principal?.scopes ||
      hasScopes(principal.scopes, "read", ["repository"]) ||
      hasScopes(principal.scopes, "read", ["issue"]);
    const actor = scoped ? c.get("actor") : ANONYMOUS;
    const download = await c
      .get("services")
      .attachments.download(actor, c.req.param("uuid") ?? "", (size) => rangeOf(c, size));
    if (download.kind === "external") return c.redirect(download.url, 303); // Forgejo's ctx.Redirect
    const { attachment, size, range } = download;
    const headers = new Headers({
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=300",
      ETag: `"${attachment.uuid}"`,
      "Last-Modified": attachment.createdAt.toUTCString(),
      "Accept-Ranges": "bytes",
    });
    if (range) {
      headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
      headers.set("Content-Length", String(range.end - range.start + 1));
      return new Response(download.stream, { status: 206, headers });
    }
    headers.set("Content-Length", String(size));
    return new Response(download.stream, { status: 200, headers });
  });
}

/** One `Range: bytes=a-b` (or `a-`, `-n`) within the file; anything else is the whole file. */
function rangeOf(c: AppContext, size: number): { start: number; end: number } | undefined {
  const header = c.req.header("Range");
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || size === 0 || (m[1] === "" && m[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (m[1] === "") {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && start <= end && start < size
    ? { start, end }
    : undefined;
}
