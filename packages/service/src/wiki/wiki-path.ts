import { posix } from "node:path";

/**
 * Forgejo's wiki names (services/wiki/wiki_path.go): a page has a title ("Home Page"), a web path
 * ("Home-Page", what `sub_url` and the API's `{pageName}` carry) and a git path ("Home-Page.md",
 * the file in the wiki repository). A segment with a `-` of its own (or ending in `.md`) keeps
 * its spaces and gets the dash marker `.-` instead ("2000-01-02+meeting.-"); everything else is
 * query-escaped as Go's url.QueryEscape does, spaces kept in git paths.
 */

/** Titles no page may have (a segment of the web path, unescaped): Forgejo's reservedWikiNames. */
const RESERVED = new Set(["_pages", "_new", "_edit", "raw"]);

/** The names of the sidebar and footer pages. */
export const SIDEBAR = "_Sidebar";
export const FOOTER = "_Footer";

/** Go's url.QueryEscape: everything but letters, digits and `-_.~` as %XX (UTF-8), spaces as `+`. */
export function queryEscape(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Go's url.QueryUnescape (`plus`: `+` is a space) or url.PathUnescape; throws on a bad `%` escape. */
function goUnescape(s: string, plus: boolean): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "%") {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex))
        throw new URIError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (c === "+" && plus) bytes.push(0x20);
    else bytes.push(...Buffer.from(c, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

export const queryUnescape = (s: string): string => goUnescape(s, true);
export const pathUnescape = (s: string): string => goUnescape(s, false);

/** Go's util.PathJoinRelX for one element: a clean relative path, never above the root ("" stays ""). */
function pathJoinRelX(s: string): string {
  if (s === "") return "";
  const cleaned = posix.normalize(`/${s.replaceAll("\\", "/")}`).replace(/\/+$/, "");
  return cleaned === "" ? "." : cleaned.slice(1) || ".";
}

const hasDashMarker = (s: string) => s.endsWith(".-");

function unescapeSegment(s: string): string {
  const t = hasDashMarker(s) ? s.slice(0, -2) : s.replaceAll("-", " ");
  try {
    return queryUnescape(t);
  } catch {
    return t;
  }
}

function escapeSegToWeb(s: string, hadDashMarker: boolean): string {
  const t = hadDashMarker || s.includes("-") || s.endsWith(".md") ? `${s}.-` : s.replaceAll(" ", "-");
  return queryEscape(t);
}

/** The segments of a web path, unescaped (Forgejo's WebPathSegments). */
export function webPathSegments(webPath: string): string[] {
  return webPath.split("/").map(unescapeSegment);
}

/** Whether a web path names a reserved page (`_pages`, `_new`, `_edit`, `raw`); returns the name. */
export function reservedSegment(webPath: string): string | undefined {
  return webPathSegments(webPath).find((s) => RESERVED.has(s));
}

/** The file of a page: "Home-Page" → "Home-Page.md" (Forgejo's WebPathToGitPath). */
export function webPathToGitPath(webPath: string): string {
  if (webPath.endsWith(".md")) {
    let raw = webPath;
    try {
      raw = pathUnescape(webPath);
    } catch {}
    return pathJoinRelX(raw);
  }
  return `${webPath
    .split("/")
    .map((segment) =>
      escapeSegToWeb(unescapeSegment(segment), hasDashMarker(segment))
        .replaceAll("%20", " ")
        .replaceAll("+", " "),
    )
    .join("/")}.md`;
}

/** The web path of a file, or undefined for a file that is no page (not `*.md`, or badly escaped). */
export function gitPathToWebPath(gitPath: string): string | undefined {
  if (!gitPath.endsWith(".md")) return undefined;
  const segments: string[] = [];
  for (const segment of gitPath.slice(0, -3).split("/")) {
    const marker = hasDashMarker(segment);
    let unescaped: string;
    try {
      unescaped = queryUnescape(marker ? segment.slice(0, -2) : segment.replaceAll("-", " "));
    } catch {
      return undefined;
    }
    segments.push(escapeSegToWeb(unescaped, marker));
  }
  return segments.join("/");
}

/** The title a web path shows: "Home-Page" → "Home Page" (Forgejo's WebPathToUserTitle). */
export function webPathToTitle(webPath: string): string {
  let display = posix.basename(webPath) || ".";
  if (display.endsWith(".md")) {
    display = display.slice(0, -3);
    try {
      display = pathUnescape(display);
    } catch {}
  }
  return unescapeSegment(display);
}

/** The web path of a new page's title: "Home Page" → "Home-Page", "" → "unnamed" (UserTitleToWebPath). */
export function titleToWebPath(title: string): string {
  const path = pathJoinRelX(escapeSegToWeb(title.trim(), false));
  return path === "" || path === "." ? "unnamed" : path;
}

/** The web path a request names (the raw, still escaped `{pageName}`): Forgejo's WebPathFromRequest. */
export function webPathFromRequest(raw: string): string {
  return pathJoinRelX(raw).replaceAll("/", "%2F");
}
