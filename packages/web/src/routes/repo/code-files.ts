import type { ContentItem, RefPath, RepoAccess } from "@kiln/service";
import { fileTypeOf } from "@kiln/service";
import type { FileShown } from "../../components/code/file-view.js";
import { escapeHtml, highlightLines } from "../../components/code/highlight.js";
import type { RefChoices } from "../../components/code/ref-selector.js";
import { REF_CHOICES_LIMIT } from "../../components/code/ref-selector.js";
import type { WebContext } from "../../env.js";
import { codePath } from "./code-paths.js";

/**
 * Files larger than this are neither highlighted nor rendered, only linked (Forgejo's
 * `[ui] MAX_DISPLAY_FILE_SIZE` is 8 MiB; highlighting 1 MiB already takes a noticeable moment,
 * see docs/web.md).
 */
export const MAX_SHOWN_SIZE = 1024 * 1024;

/** Extensions rendered as Markdown (Forgejo's `[markdown] FILE_EXTENSIONS`). */
const MARKDOWN = /\.(md|markdown|mdown|mkd|livemd)$/i;

/** Whether a file is Markdown, shown rendered unless `?display=source`. */
export function isMarkdown(name: string): boolean {
  return MARKDOWN.test(name);
}

/** Markdown of a file at `at` rendered by the service (sanitized), links resolved in its directory. */
export function renderMarkdown(
  c: WebContext,
  access: RepoAccess,
  at: RefPath,
  filePath: string,
  text: string,
) {
  const { ownerName: owner, name: repo } = access.repo;
  const dir = filePath.includes("/") ? filePath.slice(0, filePath.lastIndexOf("/")) : "";
  const ref = { kind: at.kind, name: at.name };
  return c.get("services").markup.render(c.get("actor"), {
    text,
    mode: "file",
    filePath,
    context: `${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
    tree: {
      links: codePath(owner, repo, "src", ref, dir),
      images: codePath(owner, repo, "media", ref, dir),
    },
  });
}

/**
 * Decides how a file is shown from its entry and bytes: an LFS pointer by what it points to,
 * images drawn from the raw (or media) URL, Markdown rendered, text highlighted, anything else
 * (binary, too large) only linked.
 */
export async function showFile(
  c: WebContext,
  access: RepoAccess,
  at: RefPath,
  item: ContentItem,
  source: boolean,
): Promise<FileShown> {
  const { entry } = item;
  if (entry.type === "symlink") return { kind: "symlink", target: entry.target ?? "" };
  if (entry.type === "submodule")
    return entry.submoduleUrl ? { kind: "submodule", url: entry.submoduleUrl } : { kind: "submodule" };
  const bytes = "content" in entry ? entry.content : undefined;
  if (!bytes || entry.size > MAX_SHOWN_SIZE) return { kind: "too-large" };
  const pointer = await c.get("services").sources.lfsPointer(access.repo, bytes);
  if (pointer) {
    if (pointer.stored && /\.(png|jpe?g|gif|webp|avif|bmp|ico|svg)$/i.test(entry.name))
      return { kind: "image", src: "media" };
    return { kind: "lfs", ...pointer };
  }
  const type = fileTypeOf(bytes.subarray(0, 1024), entry.name);
  if (type.kind === "image" || type.kind === "svg") {
    if (!(type.kind === "svg" && source)) return { kind: "image", src: "raw" };
  }
  if (type.kind !== "text" && type.kind !== "svg") return { kind: "binary" };
  const text = new TextDecoder("utf-8").decode(bytes);
  if (isMarkdown(entry.name) && !source) {
    return { kind: "markdown", html: await renderMarkdown(c, access, at, entry.path, text) };
  }
  return { kind: "text", lines: await highlightLines(entry.sha, entry.name, text) };
}

/** README names, the first found shown under a directory (Forgejo's order: Markdown first). */
const README = /^readme(\.(md|markdown|mdown|mkd|txt))?$/i;

/** The README of a listing rendered (Markdown) or escaped in a `<pre>`; undefined without one. */
export async function readmeOf(
  c: WebContext,
  access: RepoAccess,
  at: RefPath,
  items: readonly ContentItem[],
): Promise<{ readonly name: string; readonly path: string; readonly html: string } | undefined> {
  const candidates = items
    .filter((i) => i.entry.type === "file" && README.test(i.entry.name))
    .sort((a, b) => Number(isMarkdown(b.entry.name)) - Number(isMarkdown(a.entry.name)));
  const found = candidates[0];
  if (!found || found.entry.size > MAX_SHOWN_SIZE) return undefined;
  const view = await c
    .get("services")
    .contents.contentsAt(access.repo, { ...at, path: found.entry.path }, MAX_SHOWN_SIZE, 1);
  const entry = view.items[0]?.entry;
  if (!entry || !("content" in entry)) return undefined;
  if (fileTypeOf(entry.content.subarray(0, 1024), entry.name).kind !== "text") return undefined;
  const text = new TextDecoder("utf-8").decode(entry.content);
  const html = isMarkdown(entry.name)
    ? await renderMarkdown(c, access, at, entry.path, text)
    : `<pre class="readme-text">${escapeHtml(text)}</pre>`;
  return { name: entry.name, path: entry.path, html };
}

/** The branches and tags a selector offers. */
export async function refChoices(c: WebContext, access: RepoAccess): Promise<RefChoices> {
  const sources = c.get("services").sources;
  const [branches, tags] = await Promise.all([
    sources.refNames(access.repo, "branch", REF_CHOICES_LIMIT),
    sources.refNames(access.repo, "tag", REF_CHOICES_LIMIT),
  ]);
  return { branches, tags };
}
