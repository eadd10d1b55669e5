import type MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";

/** `@name` where a word may start: Forgejo's mention pattern (names end with a letter or digit). */
const MENTION = /(^|[\s([{"'])@([0-9A-Za-z_][0-9A-Za-z_.-]*[0-9A-Za-z_]|[0-9A-Za-z_])(?=$|[\s)\]}"'.,:;!?])/g;
/** `#123` or `owner/repo#123` where a word may start (Forgejo's issue reference patterns). */
const ISSUE_REF = /(^|[\s([{"'])((?:[0-9A-Za-z_.-]+\/[0-9A-Za-z_.-]+)?)#([0-9]{1,18})(?=$|[\s)\]}"'.,:;!?])/g;

/** Where references of a rendering point to, and which mentioned accounts exist for the reader. */
export interface ReferenceLinks {
  /** The instance's root URL, ending in `/`. */
  readonly rootUrl: string;
  /** The document's URL prefix (its repository's URL for `#123`), without a trailing `/`. */
  readonly prefix: string;
  /**
   * Where relative links and images of a file in a tree resolve (`…/src/branch/main/docs`,
   * `…/media/branch/main/docs`), as Forgejo's BranchPath + TreePath; `prefix` when absent.
   */
  readonly tree?: { readonly links: string; readonly images: string };
  /** Whether `@name` is an account the reader may see (only those become links). */
  readonly mentionable: (name: string) => boolean;
}

/**
 * The `@names` a document mentions outside code and links, so that the caller can look them up
 * (in one query) before rendering.
 */
export function mentionedNames(tokens: readonly Token[]): string[] {
  const names = new Set<string>();
  forEachText(tokens, (text) => {
    for (const match of text.matchAll(MENTION)) names.add(match[2] ?? "");
  });
  names.delete("");
  return [...names];
}

/** Calls `visit` with the content of every text token that is not inside a link. */
function forEachText(tokens: readonly Token[], visit: (text: string, token: Token) => void): void {
  for (const block of tokens) {
    if (block.type !== "inline" || !block.children) continue;
    let inLink = 0;
    for (const token of block.children) {
      if (token.type === "link_open") inLink++;
      else if (token.type === "link_close") inLink--;
      else if (token.type === "text" && inLink === 0) visit(token.content, token);
    }
  }
}

/**
 * A markdown-it core rule turning mentions of visible accounts and issue references into links,
 * as Forgejo's post-processors do (`class="mention"`, `class="ref-issue"`); code spans, code
 * blocks and existing links are left alone.
 */
export function referencesPlugin(md: MarkdownIt, links: () => ReferenceLinks | undefined): void {
  md.core.ruler.push("kiln_references", (state) => {
    const target = links();
    if (!target) return;
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      const out: Token[] = [];
      let inLink = 0;
      for (const token of block.children) {
        if (token.type === "link_open") inLink++;
        else if (token.type === "link_close") inLink--;
        if (token.type !== "text" || inLink > 0) {
          out.push(token);
          continue;
        }
        out.push(...splitText(state.Token, token, target));
      }
      block.children = out;
    }
  });
}

type TokenClass = new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;

interface Found {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly href: string;
  readonly className: string;
}

/** Splits one text token into text and link tokens at each reference it holds. */
function splitText(TokenCtor: TokenClass, token: Token, target: ReferenceLinks): Token[] {
  const content = token.content;
  const found: Found[] = [];
  for (const m of content.matchAll(MENTION)) {
    const name = m[2] ?? "";
    if (!target.mentionable(name)) continue;
    const start = (m.index ?? 0) + (m[1]?.length ?? 0);
    found.push({
      start,
      end: start + name.length + 1,
      text: `@${name}`,
      href: `${target.rootUrl}${encodeURIComponent(name)}`,
      className: "mention",
    });
  }
  for (const m of content.matchAll(ISSUE_REF)) {
    const repo = m[2] ?? "";
    const index = m[3] ?? "";
    const start = (m.index ?? 0) + (m[1]?.length ?? 0);
    const href = repo
      ? `${target.rootUrl}${repo.split("/").map(encodeURIComponent).join("/")}/issues/${index}`
      : `${target.prefix}/issues/${index}`;
    found.push({
      start,
      end: start + repo.length + 1 + index.length,
      text: `${repo}#${index}`,
      href,
      className: "ref-issue",
    });
  }
  if (found.length === 0) return [token];
  found.sort((a, b) => a.start - b.start);
  const out: Token[] = [];
  let at = 0;
  const text = (value: string) => {
    if (!value) return;
    const t = new TokenCtor("text", "", 0);
    t.content = value;
    out.push(t);
  };
  for (const ref of found) {
    if (ref.start < at) continue;
    text(content.slice(at, ref.start));
    const open = new TokenCtor("link_open", "a", 1);
    open.attrs = [
      ["href", ref.href],
      ["class", ref.className],
    ];
    out.push(open);
    text(ref.text);
    out.push(new TokenCtor("link_close", "a", -1));
    at = ref.end;
  }
  text(content.slice(at));
  return out;
}
