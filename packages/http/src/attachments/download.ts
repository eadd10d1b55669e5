import { hasScopes } from "@kiln/domain";
import { ANONYMOUS } from "@kiln/service";
import { identify } from "../auth.js";
import type { Mount } from "../env.js";
import { requestedRange, unsatisfiable } from "../packages/serve-file.js";

/**
 * `GET {ROOT_URL}attachments/{uuid}`: an attachment's `browser_download_url` (Forgejo's
 * routers/web/repo/attachment.go ServeAttachment). The caller is identified as on the API (a
 * token, Basic auth); a token without `read:repository` and `read:issue` is taken as anonymous.
 * 404 unless the caller may read what the attachment is in; an external one redirects; a stored
 * one streams from the blob store, whole or one `Range` (416 past its end), and counts as
 * downloaded; an `If-None-Match` naming its ETag is 304.
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
    let unsatisfiableSize: number | undefined;
    const download = await c
      .get("services")
      .attachments.download(actor, c.req.param("uuid") ?? "", (size) => {
        const range = requestedRange(c, size);
        if (range !== "unsatisfiable") return range;
        unsatisfiableSize = size;
        return undefined;
      });
    if (download.kind === "external") return c.redirect(download.url, 303); // Forgejo's ctx.Redirect
    const { attachment, size, range } = download;
    const etag = `"${attachment.uuid}"`;
    // Forgejo's HandleGenericETagCache (after counting the download), then http.ServeContent.
    if (matchesEtag(c.req.header("If-None-Match"), etag)) {
      await download.stream.cancel();
      return new Response(null, {
        status: 304,
        headers: { ETag: etag, "Cache-Control": "private, max-age=300" },
      });
    }
    if (unsatisfiableSize !== undefined) {
      await download.stream.cancel();
      return unsatisfiable(unsatisfiableSize);
    }
    const headers = new Headers({
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=300",
      ETag: etag,
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

/** Whether an `If-None-Match` header names the ETag (or is `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}
