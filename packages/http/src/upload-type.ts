/**
 * Forgejo's `[attachment] ALLOWED_TYPES` check (services/context/upload.Verify): the type is
 * sniffed from the first bytes as Go's `http.DetectContentType` does (WHATWG MIME sniffing, at
 * most 512 bytes looked at), and a file passes when an entry of the list is `*\/*`, its
 * extension (`.zip`), its type (`application/zip`) or a wildcard (`image/*`). An empty list
 * allows everything.
 */

/** How many leading bytes the sniffer looks at (Go's sniffLen). */
export const SNIFF_LENGTH = 512;

const OCTET_STREAM = "application/octet-stream";

type Sniffer = (data: Uint8Array, firstNonWS: number) => string | undefined;

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function exact(pattern: string, type: string): Sniffer {
  const p = bytes(pattern);
  return (data) => (data.length >= p.length && p.every((b, i) => data[i] === b) ? type : undefined);
}

function masked(mask: string, pattern: string, type: string, skipWS = false): Sniffer {
  const m = bytes(mask);
  const p = bytes(pattern);
  return (data, firstNonWS) => {
    const d = skipWS ? data.subarray(firstNonWS) : data;
    if (d.length < p.length) return undefined;
    for (let i = 0; i < p.length; i++) if (((d[i] as number) & (m[i] as number)) !== p[i]) return undefined;
    return type;
  };
}

/** An HTML tag, case-insensitive, followed by a space or `>`. */
function html(tag: string): Sniffer {
  const t = bytes(tag);
  return (data, firstNonWS) => {
    const d = data.subarray(firstNonWS);
    if (d.length < t.length + 1) return undefined;
    for (let i = 0; i < t.length; i++) {
      const b = t[i] as number;
      let db = d[i] as number;
      if (b >= 0x41 && b <= 0x5a) db &= 0xdf;
      if (b !== db) return undefined;
    }
    const next = d[t.length];
    return next === 0x20 || next === 0x3e ? "text/html; charset=utf-8" : undefined;
  };
}

const mp4: Sniffer = (data) => {
  if (data.length < 12) return undefined;
  const boxSize =
    ((data[0] as number) << 24) |
    ((data[1] as number) << 16) |
    ((data[2] as number) << 8) |
    (data[3] as number);
  if (boxSize < 0 || data.length < boxSize || boxSize % 4 !== 0) return undefined;
  if (String.fromCharCode(...data.subarray(4, 8)) !== "ftyp") return undefined;
  for (let st = 8; st < boxSize; st += 4) {
    if (st === 12) continue;
    if (String.fromCharCode(...data.subarray(st, st + 3)) === "mp4") return "video/mp4";
  }
  return undefined;
};

const text: Sniffer = (data, firstNonWS) => {
  for (let i = firstNonWS; i < data.length; i++) {
    const b = data[i] as number;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return undefined;
  }
  return "text/plain; charset=utf-8";
};

const SNIFFERS: readonly Sniffer[] = [
  ...[
    "<!DOCTYPE HTML",
    "<HTML",
    "<HEAD",
    "<SCRIPT",
    "<IFRAME",
    "<H1",
    "<DIV",
    "<FONT",
    "<TABLE",
    "<A",
    "<STYLE",
    "<TITLE",
    "<B",
    "<BODY",
    "<BR",
    "<P",
    "<!--",
  ].map(html),
  masked("\xFF\xFF\xFF\xFF\xFF", "<?xml", "text/xml; charset=utf-8", true),
  exact("%PDF-", "application/pdf"),
  exact("%!PS-Adobe-", "application/postscript"),
  masked("\xFF\xFF\x00\x00", "\xFE\xFF\x00\x00", "text/plain; charset=utf-16be"),
  masked("\xFF\xFF\x00\x00", "\xFF\xFE\x00\x00", "text/plain; charset=utf-16le"),
  masked("\xFF\xFF\xFF\x00", "\xEF\xBB\xBF\x00", "text/plain; charset=utf-8"),
  exact("\x00\x00\x01\x00", "image/x-icon"),
  exact("\x00\x00\x02\x00", "image/x-icon"),
  exact("BM", "image/bmp"),
  exact("GIF87a", "image/gif"),
  exact("GIF89a", "image/gif"),
  masked(
    "\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF\xFF\xFF",
    "RIFF\x00\x00\x00\x00WEBPVP",
    "image/webp",
  ),
  exact("\x89PNG\x0D\x0A\x1A\x0A", "image/png"),
  exact("\xFF\xD8\xFF", "image/jpeg"),
  masked("\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF", "FORM\x00\x00\x00\x00AIFF", "audio/aiff"),
  masked("\xFF\xFF\xFF", "ID3", "audio/mpeg"),
  masked("\xFF\xFF\xFF\xFF\xFF", "OggS\x00", "application/ogg"),
  masked("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", "MThd\x00\x00\x00\x06", "audio/midi"),
  masked("\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF", "RIFF\x00\x00\x00\x00AVI ", "video/avi"),
  masked("\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF", "RIFF\x00\x00\x00\x00WAVE", "audio/wave"),
  mp4,
  exact("\x1A\x45\xDF\xA3", "video/webm"),
  masked(`${"\x00".repeat(34)}\xFF\xFF`, `${"\x00".repeat(34)}LP`, "application/vnd.ms-fontobject"),
  exact("\x00\x01\x00\x00", "font/ttf"),
  exact("OTTO", "font/otf"),
  exact("ttcf", "font/collection"),
  exact("wOFF", "font/woff"),
  exact("wOF2", "font/woff2"),
  exact("\x1F\x8B\x08", "application/x-gzip"),
  exact("PK\x03\x04", "application/zip"),
  exact("Rar!\x1A\x07\x00", "application/x-rar-compressed"),
  exact("Rar!\x1A\x07\x01\x00", "application/x-rar-compressed"),
  exact("\x00\x61\x73\x6D", "application/wasm"),
  text,
];

/** Go's `http.DetectContentType`: the MIME type of data from its first 512 bytes. */
export function detectContentType(head: Uint8Array): string {
  const data = head.subarray(0, SNIFF_LENGTH);
  let firstNonWS = 0;
  while (firstNonWS < data.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(data[firstNonWS] as number))
    firstNonWS++;
  for (const sniff of SNIFFERS) {
    const type = sniff(data, firstNonWS);
    if (type) return type;
  }
  return OCTET_STREAM;
}

/** Go's `path.Ext`: the suffix from the last dot of the last path element (`""` without one). */
function extensionOf(name: string): string {
  for (let i = name.length - 1; i >= 0 && name[i] !== "/"; i--) if (name[i] === ".") return name.slice(i);
  return "";
}

/**
 * Whether a file may be uploaded under `allowedTypes` (comma- or `|`-separated; empty allows
 * everything); undefined when allowed, else the sniffed type that was refused.
 */
export function refusedType(head: Uint8Array, fileName: string, allowedTypes: string): string | undefined {
  const allowed = allowedTypes
    .replaceAll("|", ",")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  if (allowed.length === 0) return undefined;
  const full = detectContentType(head);
  const mime = (full.split(";")[0] ?? "").trim().toLowerCase();
  const extension = extensionOf(fileName).toLowerCase();
  for (const entry of allowed) {
    if (entry === "*/*") return undefined;
    if (entry.startsWith(".") && entry === extension) return undefined;
    if (mime === entry) return undefined;
    if (/^[a-z]+\/\*$/.test(entry) && mime.startsWith(entry.slice(0, -1))) return undefined;
  }
  return full;
}
