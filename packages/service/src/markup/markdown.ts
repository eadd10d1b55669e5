import { createRequire } from "node:module";
import MarkdownIt, { type PluginSimple, type PluginWithOptions } from "markdown-it";
import footnote from "markdown-it-footnote";
import taskLists from "markdown-it-task-lists";
import type sanitizeHtml from "sanitize-html";
import { mentionedNames, type ReferenceLinks, referencesPlugin } from "./references.js";

/**
 * How a text is rendered (Forgejo's modes): `raw` is plain CommonMark + GFM with nothing resolved
 * (`/markdown/raw`, mode `markdown`); `document` resolves mentions, issue references and relative
 * links (mode `gfm`, files, wiki pages); `comment` does too and keeps single line breaks, as
 * Forgejo's `[markdown] ENABLE_HARD_LINE_BREAK_IN_COMMENTS` (on by default) does.
 */
export type RenderMode = "raw" | "document" | "comment";

/** What one rendering needs besides the text. */
export interface RenderTarget {
  readonly mode: RenderMode;
  /** Resolves references and relative links; absent in `raw` mode. */
  readonly links?: ReferenceLinks;
  /** A wiki page: relative links point to wiki pages, images to the wiki's raw files. */
  readonly wiki?: boolean;
}

/** Classes Kiln's own output uses on links (anything else a user writes is dropped). */
const LINK_CLASSES = new Set(["mention", "ref-issue", "footnote-backref"]);
/** Footnote anchors markdown-it-footnote writes (`fn1`, `fnref1`, `fnref1:2`). */
const FOOTNOTE_ID = /^fn(?:ref)?\d+(?::\d+)?$/;

/**
 * The sanitizer's allow-list: what CommonMark, GFM, task lists and footnotes produce, plus the
 * inline HTML Forgejo's sanitizer keeps (details, kbd, sub/sup, …). Scripts, styles, event
 * handlers and `javascript:` links never survive.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...["h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code", "span", "div"],
    ...["ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td"],
    ...["a", "img", "em", "strong", "del", "s", "ins", "mark", "sub", "sup", "kbd", "q", "abbr"],
    ...["details", "summary", "section", "input", "picture", "source"],
  ],
  allowedAttributes: {
    a: ["href", "title", "class", "id", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    ol: ["start", "type"],
    li: ["class", "id"],
    ul: ["class"],
    sup: ["class", "id"],
    section: ["class"],
    hr: ["class"],
    input: ["type", "checked", "disabled", "class"],
    th: ["style", "align"],
    td: ["style", "align"],
    details: ["open"],
    source: ["srcset", "media"],
  },
  allowedClasses: {
    code: [/^language-[\w+#-]+$/],
    li: ["task-list-item", "footnote-item"],
    ul: ["contains-task-list"],
    ol: ["contains-task-list"],
    input: ["task-list-item-checkbox"],
    sup: ["footnote-ref"],
    section: ["footnotes"],
    hr: ["footnotes-sep"],
  },
  allowedStyles: { "*": { "text-align": [/^(left|right|center)$/] } },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: keepKnown(attribs, LINK_CLASSES) }),
    li: (tagName, attribs) => ({ tagName, attribs: keepFootnoteId(attribs) }),
    sup: (tagName, attribs) => ({ tagName, attribs: keepFootnoteId(attribs) }),
    // Only the read-only checkbox of a task list.
    input: (tagName, attribs) =>
      attribs.type === "checkbox"
        ? { tagName, attribs: { ...attribs, disabled: "" } }
        : { tagName: "span", attribs: {} },
  },
};

function keepFootnoteId(attribs: Record<string, string>): Record<string, string> {
  if (attribs.id === undefined || FOOTNOTE_ID.test(attribs.id)) return attribs;
  const { id: _dropped, ...rest } = attribs;
  return rest;
}

function keepKnown(attribs: Record<string, string>, classes: ReadonlySet<string>): Record<string, string> {
  const kept = keepFootnoteId(attribs);
  if (kept.class === undefined) return kept;
  const known = kept.class.split(/\s+/).filter((name) => classes.has(name));
  const { class: _all, ...rest } = kept;
  return known.length ? { ...rest, class: known.join(" ") } : rest;
}

/** Whether a link is relative to the document (not absolute, not rooted, not an anchor). */
function isRelative(link: string): boolean {
  return link !== "" && !/^(?:[a-z][a-z0-9+.-]*:|\/|#|\?)/i.test(link);
}

/** Joins a relative link to a prefix (one `/` between them). */
function joinLink(prefix: string, link: string): string {
  return `${prefix.replace(/\/+$/, "")}/${link.replace(/^(?:\.\/)+/, "")}`;
}

let sanitizeLoaded: typeof sanitizeHtml | undefined;

/**
 * sanitize-html (with htmlparser2), required on the first render: about 2.5 MiB of heap that an
 * instance serving only the API never needs. It is CommonJS, so rendering stays synchronous.
 */
function sanitizer(): typeof sanitizeHtml {
  sanitizeLoaded ??= createRequire(import.meta.url)("sanitize-html") as typeof sanitizeHtml;
  return sanitizeLoaded;
}

/**
 * Markdown to sanitized HTML: CommonMark with GitHub's extensions (tables, strikethrough,
 * autolinks, task lists) and footnotes, by markdown-it, then the allow-list sanitizer. Mentions,
 * issue references and relative links are resolved as {@link RenderTarget} says.
 */
export class MarkdownRenderer {
  #target: RenderTarget | undefined;
  readonly #document: MarkdownIt;
  readonly #comment: MarkdownIt;

  constructor() {
    this.#document = this.#build(false);
    this.#comment = this.#build(true);
  }

  #build(breaks: boolean): MarkdownIt {
    const md = new MarkdownIt({ html: true, linkify: true, breaks });
    // The plugins' declarations name markdown-it's CommonJS types; it is the same markdown-it at run time.
    const tasks = taskLists as unknown as PluginWithOptions<{ enabled: boolean }>;
    md.use(tasks, { enabled: false }).use(footnote as unknown as PluginSimple);
    md.use(referencesPlugin, () => this.#target?.links);
    md.core.ruler.push("kiln_relative_links", (state) => {
      const target = this.#target;
      if (!target?.links) return;
      const prefix = target.links.prefix;
      for (const block of state.tokens) {
        for (const token of block.children ?? []) {
          const attr = token.type === "link_open" ? "href" : token.type === "image" ? "src" : undefined;
          const value = attr ? token.attrGet(attr) : null;
          if (!attr || value === null || !isRelative(value)) continue;
          const tree = target.links.tree;
          const base = target.wiki
            ? attr === "src"
              ? `${prefix}/wiki/raw`
              : `${prefix}/wiki`
            : tree
              ? attr === "src"
                ? tree.images
                : tree.links
              : prefix;
          token.attrSet(attr, joinLink(base, value));
        }
      }
    });
    return md;
  }

  /** The `@names` a text mentions outside code and links (to look up before {@link render}). */
  mentions(text: string): string[] {
    return mentionedNames(this.#document.parse(text, {}));
  }

  /** Renders `text` to sanitized HTML. */
  render(text: string, target: RenderTarget): string {
    const md = target.mode === "comment" ? this.#comment : this.#document;
    this.#target = target.mode === "raw" ? { mode: "raw" } : target;
    try {
      return sanitizer()(md.render(text), SANITIZE);
    } finally {
      this.#target = undefined;
    }
  }
}
