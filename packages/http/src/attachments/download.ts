import type { AttachmentDownload } from "@kiln/service";
import type { AppContext, Mount } from "../env.js";
import { type ByteRange, requestedRange, unsatisfiable } from "../packages/serve-file.js";
import { downloadActor } from "./download-caller.js";

/** Finds a download, given the range the request asks for once the file's size is known. */
type Find = (range: (size: number) => ByteRange | undefined) => Promise<AttachmentDownload>;

/**
 * The attachments' download links (Forgejo's routers/web/repo/attachment.go ServeAttachment and
 * repo.go RedirectDownload), for browsers (the session cookie) and API clients (a token, Basic
 * auth) alike, see {@link downloadActor}:
 * - `GET {ROOT_URL}attachments/{uuid}`, any attachment's `browser_download_url`;
 * - `GET {ROOT_URL}{owner}/{repo}/releases/download/{tag}/{name}`, a release asset's when the
 *   release's asset names are unique (404 without the releases unit, as the page).
 * 404 unless the caller may read what the attachment is in; an external one redirects; a stored
 * one streams from the blob store, whole or one `Range` (416 past its end), and counts as
 * downloaded; an `If-None-Match` naming its ETag is 304.
 */
export function mountAttachmentDownloads(mount: Mount): void {
  mount("get", "/attachments/:uuid", async (c) => {
    const actor = await downloadActor(c);
    return serve(c, (range) =>
      c.get("services").attachments.download(actor, c.req.param("uuid") ?? "", range),
    );
  });
  mount("get", "/:owner/:repo/releases/download/:tag/:name", async (c) => {
    const services = c.get("services");
    const actor = await downloadActor(c, "repository");
    const access = await services.access.repo(actor, c.req.param("owner") ?? "", c.req.param("repo") ?? "", {
      read: "repo.releases",
      hiddenWithout: "repo.releases",
    });
    const [tag, name] = [c.req.param("tag") ?? "", c.req.param("name") ?? ""];
    return serve(c, (range) => services.attachments.downloadFromRelease(access, tag, name, range));
  });
}

async function serve(c: AppContext, find: Find): Promise<Response> {
  let unsatisfiableSize: number | undefined;
  const download = await find((size) => {
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
}

/** Whether an `If-None-Match` header names the ETag (or is `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}
