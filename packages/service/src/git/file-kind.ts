/** What a file is to a browser: text to show, an image to draw, or bytes only to download. */
export type FileKind = "text" | "image" | "svg" | "pdf" | "binary";

/** A file's kind and the media type to serve it with. */
export interface FileType {
  readonly kind: FileKind;
  readonly mime: string;
}

/** Image signatures browsers draw safely (no script): Forgejo's browsable binary types. */
const IMAGES: readonly { readonly mime: string; readonly test: (b: Uint8Array) => boolean }[] = [
  { mime: "image/png", test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: "image/jpeg", test: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { mime: "image/gif", test: (b) => ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a") },
  { mime: "image/webp", test: (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP") },
  { mime: "image/avif", test: (b) => ascii(b, 4, "ftypavif") },
  { mime: "image/bmp", test: (b) => ascii(b, 0, "BM") && b.length > 14 },
  { mime: "image/x-icon", test: (b) => starts(b, [0, 0, 1, 0]) },
];

function starts(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, i) => bytes[i] === value);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Valid UTF-8 without NUL bytes (a character cut at the end of `head` is no error). */
function isText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Judges a file by its first bytes (about a kilobyte is enough) and its name, as Forgejo's
 * typesniffer: images by signature, SVG (text that is an SVG document), PDF, text, else binary.
 * HTML is text: a raw file is never served as a page of this site.
 */
export function fileTypeOf(head: Uint8Array, name: string): FileType {
  for (const image of IMAGES) if (image.test(head)) return { kind: "image", mime: image.mime };
  if (ascii(head, 0, "%PDF-")) return { kind: "pdf", mime: "application/pdf" };
  if (!isText(head)) return { kind: "binary", mime: "application/octet-stream" };
  const start = Buffer.from(head.subarray(0, 1024)).toString("utf8");
  if (/\.svg$/i.test(name) && /<svg[\s>]/i.test(start)) return { kind: "svg", mime: "image/svg+xml" };
  return { kind: "text", mime: "text/plain; charset=utf-8" };
}
