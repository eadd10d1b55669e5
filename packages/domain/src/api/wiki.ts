import * as v from "valibot";
import { CommitUser } from "./git.js";
import { int64 } from "./primitives.js";

/** The longest page title accepted (its file name is the escaped title). */
export const MAX_WIKI_TITLE = 255;

/** `POST …/wiki/new` and `PATCH …/wiki/page/{pageName}` (Forgejo's `CreateWikiPageOptions`). */
export const CreateWikiPageOptions = v.object({
  /** The page title; on an edit, empty or absent keeps the page's name. */
  title: v.optional(v.pipe(v.string(), v.maxLength(MAX_WIKI_TITLE))),
  /** The content, base64-encoded (the body limit bounds it further). */
  content_base64: v.optional(v.pipe(v.string(), v.maxLength(64 * 1024 * 1024))),
  /** The commit message; `Add "<title>"` / `Update "<page>"` when empty. */
  message: v.optional(v.pipe(v.string(), v.maxLength(65536))),
});

/** A commit of the wiki (Forgejo's `WikiCommit`; `commiter` is spelled as Forgejo spells it). */
export const WikiCommit = v.object({
  sha: v.string(),
  author: v.nullable(CommitUser),
  commiter: v.nullable(CommitUser),
  message: v.string(),
});

/** A page without its content (Forgejo's `WikiPageMetaData`). */
export const WikiPageMetaData = v.object({
  title: v.string(),
  html_url: v.string(),
  sub_url: v.string(),
  last_commit: WikiCommit,
});

/** A page with its content, base64-encoded, and the wiki's sidebar and footer (Forgejo's `WikiPage`). */
export const WikiPage = v.object({
  ...WikiPageMetaData.entries,
  content_base64: v.string(),
  commit_count: int64(),
  sidebar: v.string(),
  footer: v.string(),
});

/** The revisions of a page (Forgejo's `WikiCommitList`): one page of commits and their total. */
export const WikiCommitList = v.object({
  commits: v.array(WikiCommit),
  count: int64(),
});
