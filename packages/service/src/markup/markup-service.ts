import { InvalidArgumentError } from "@kiln/domain";
import { users } from "@kiln/storage";
import { type Actor, viewerOf } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import { MarkdownRenderer, type RenderMode } from "./markdown.js";

/** One rendering request, as `/markdown`, `/markdown/raw` and `/markup` carry it. */
export interface MarkupRequest {
  readonly text: string;
  readonly mode: string;
  /** The URL prefix links resolve against: a URL, or a path under the root URL (`owner/repo`). */
  readonly context?: string;
  /** A wiki page: relative links point to other pages of the wiki. */
  readonly wiki?: boolean;
  /** In `file` mode, the file whose extension picks the markup language. */
  readonly filePath?: string;
  /**
   * A file shown in a tree: paths under the root URL (or URLs) its relative links and images
   * resolve against (the directory's `src` and `media` paths), while `#123` keeps `context`.
   */
  readonly tree?: { readonly links: string; readonly images: string };
}

/** File extensions rendered as Markdown in `file` mode (Forgejo's `[markdown] FILE_EXTENSIONS`). */
const MARKDOWN_EXTENSIONS = new Set([".md", ".markdown", ".mdown", ".mkd", ".livemd"]);
/** At most this many distinct `@names` of one text are looked up; the rest stay plain text. */
const MAX_MENTIONS = 100;

/**
 * Renders Markdown for the instance's helpers (`POST /markdown`, `/markdown/raw`, `/markup`), as
 * Forgejo's `common.RenderMarkup` does: mentions become links only for accounts the caller may
 * see, issue references link into the context's repository, and the HTML is sanitized.
 */
export class MarkupService {
  readonly #renderer = new MarkdownRenderer();

  constructor(private readonly ctx: ServiceContext) {}

  /** The HTML of a request; throws InvalidArgumentError (422) for an unknown mode or file type. */
  async render(actor: Actor, request: MarkupRequest): Promise<string> {
    if (request.text === "") return "";
    const mode = this.#mode(request);
    if (mode === "raw") return this.#renderer.render(request.text, { mode });
    const names = this.#renderer.mentions(request.text).slice(0, MAX_MENTIONS);
    const visible =
      names.length > 0
        ? await users.visibleAccountNames(this.ctx.db, names, viewerOf(actor))
        : new Set<string>();
    const rootUrl = this.ctx.settings.server.rootUrl;
    return this.#renderer.render(request.text, {
      mode,
      wiki: request.wiki === true,
      links: {
        rootUrl,
        prefix: urlPrefix(rootUrl, request.context ?? ""),
        ...(request.tree
          ? {
              tree: {
                links: urlPrefix(rootUrl, request.tree.links),
                images: urlPrefix(rootUrl, request.tree.images),
              },
            }
          : {}),
        mentionable: (name) => visible.has(name.toLowerCase()),
      },
    });
  }

  #mode(request: MarkupRequest): RenderMode {
    switch (request.mode) {
      case "markdown":
        return "raw";
      case "gfm":
        return "document";
      case "comment":
        return "comment";
      case "file": {
        const path = request.filePath ?? "";
        const dot = path.lastIndexOf(".");
        const extension = dot > path.lastIndexOf("/") ? path.slice(dot).toLowerCase() : "";
        if (MARKDOWN_EXTENSIONS.has(extension)) return "document";
        throw new InvalidArgumentError(`Unsupported render extension: ${extension || path}`);
      }
      default:
        throw new InvalidArgumentError(`Unknown mode: ${request.mode}`);
    }
  }
}

/**
 * Forgejo's URL prefix of a rendering: an `http(s)` URL as given, anything else joined to the root
 * URL (an empty context is the root URL itself); never with a trailing `/`.
 */
export function urlPrefix(rootUrl: string, context: string): string {
  if (/^https?:\/\//i.test(context)) return withoutTrailingSlashes(context);
  const path = trimSlashes(context);
  return path ? `${withoutTrailingSlashes(rootUrl)}/${path}` : withoutTrailingSlashes(rootUrl);
}

/** `text` without its leading and trailing `/`s, by a scan: `/\/+$/` is quadratic in a run of slashes. */
function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 47) start++;
  while (end > start && text.charCodeAt(end - 1) === 47) end--;
  return text.slice(start, end);
}

/** `text` without its trailing `/`s (a scan, as {@link trimSlashes}). */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 47) end--;
  return text.slice(0, end);
}
