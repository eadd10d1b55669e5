import { type api, formatTime, type Repository, type Settings } from "@kiln/domain";
import type { CommitInfo } from "@kiln/git";
import type * as v from "valibot";
import type { WikiPageMeta, WikiPageView } from "../wiki/wiki-service.js";
import { repoLinks } from "./git.js";

type ApiWikiCommit = v.InferOutput<typeof api.WikiCommit>;
type ApiWikiPageMetaData = v.InferOutput<typeof api.WikiPageMetaData>;
type ApiWikiPage = v.InferOutput<typeof api.WikiPage>;

function commitUser(sig: CommitInfo["author"]) {
  return { name: sig.name, email: sig.email, date: formatTime(new Date(sig.timestamp * 1000)) };
}

/** Forgejo's ToWikiCommit: the sha, author and committer (`commiter`) with RFC 3339 dates, the message. */
export function toApiWikiCommit(commit: CommitInfo): ApiWikiCommit {
  return {
    sha: commit.sha,
    author: commitUser(commit.author),
    commiter: commitUser(commit.committer),
    message: commit.message,
  };
}

/** Forgejo's ToWikiPageMetaData: `sub_url` is the web path, `html_url` the page under `/wiki/`. */
export function toApiWikiPageMetaData(
  page: WikiPageMeta,
  repo: Repository,
  settings: Settings,
): ApiWikiPageMetaData {
  return {
    title: page.title,
    html_url: `${repoLinks(repo, settings).html}/wiki/${page.webPath}`,
    sub_url: page.webPath,
    last_commit: toApiWikiCommit(page.lastCommit),
  };
}

const base64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : "");

/** Forgejo's WikiPage: the metadata, the content, sidebar and footer in base64 ("" when missing or too large). */
export function toApiWikiPage(page: WikiPageView, repo: Repository, settings: Settings): ApiWikiPage {
  return {
    ...toApiWikiPageMetaData(page, repo, settings),
    content_base64: base64(page.content),
    commit_count: page.commitCount,
    sidebar: base64(page.sidebar),
    footer: base64(page.footer),
  };
}
