import type { ArchiveDownload } from "./archive-service.js";

/** Forgejo's content types per archive format; a bundle is `application/octet-stream`. */
const CONTENT_TYPES = {
  zip: "application/zip",
  "tar.gz": "application/gzip",
  bundle: "application/octet-stream",
} as const;

/**
 * Go's `url.PathEscape`: what `encodeURIComponent` escapes, except `$&+,:;=@`, plus `!'()*`.
 * Forgejo writes the download name's `filename*` with it.
 */
function pathEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
}

/**
 * Forgejo's `Content-Disposition` (ServeSetHeaders): `attachment; filename="<name>";
 * filename*=UTF-8''<escaped>`, the quoted name with `\` and `"` escaped and sent as its UTF-8 bytes.
 */
export function attachmentDisposition(name: string): string {
  const quoted = Buffer.from(name.replaceAll("\\", "\\\\").replaceAll('"', '\\"'), "utf8").toString("latin1");
  return `attachment; filename="${quoted}"; filename*=UTF-8''${pathEscape(name)}`;
}

/**
 * The headers of an archive download, the same for the API and the pages: its type, its file
 * name as an attachment (never shown inline), and `nosniff`.
 */
export function archiveHeaders(
  archive: Pick<ArchiveDownload, "format" | "fileName">,
): Record<string, string> {
  return {
    "Content-Type": CONTENT_TYPES[archive.format],
    "Content-Disposition": attachmentDisposition(archive.fileName),
    "X-Content-Type-Options": "nosniff",
  };
}
