import { CommentType, NotFoundError, type User } from "@kiln/domain";
import type { RepoAccess, Services, TimelineEntry } from "@kiln/service";
import { Icon } from "../../components/icon.js";
import { issueLink } from "../../components/issue-row.js";
import { IssueSidebar } from "../../components/issue-sidebar.js";
import { LabelStyles } from "../../components/label-badge.js";
import { Pagination } from "../../components/pagination.js";
import { PullHeader } from "../../components/pull-header.js";
import { Post, Timeline, type TimelineExtras } from "../../components/timeline.js";
import type { WebContext } from "../../env.js";
import type { Fields } from "../../forms.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { pageOf } from "../../paging.js";
import { seeOther } from "../../responses.js";
import { repoPath } from "../../urls.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

/** Timeline entries a page shows at most (a longer timeline is paged). */
const TIMELINE_PAGE = 100;

/** The number of the path, or 404 (Forgejo answers 404 for an index that is no number). */
function indexOf(c: WebContext): number {
  const text = c.req.param("index") ?? "";
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new NotFoundError();
  return Number(text);
}

/** Renders each post's Markdown through the markup service (sanitized, mentions only of visible accounts). */
async function bodiesOf(
  services: Services,
  c: WebContext,
  access: RepoAccess,
  entries: readonly TimelineEntry[],
) {
  const context = `${access.repo.ownerName}/${access.repo.name}`;
  const bodies = new Map<number, string>();
  for (const { comment } of entries) {
    if (comment.content === "" || comment.type === CommentType.commitRef) continue;
    bodies.set(
      comment.id,
      await services.markup.render(c.get("actor"), { text: comment.content, mode: "comment", context }),
    );
  }
  return bodies;
}

/** The head of a pull request as the viewer may know it: `owner/repo:branch` for a fork it can see. */
async function headOf(
  services: Services,
  access: RepoAccess,
  pull: Parameters<Services["pulls"]["headAccess"]>[1],
) {
  if (pull.headRepoId === access.repo.id) return pull.headBranch;
  const head = await services.pulls.headAccess(access, pull);
  return head ? `${head.repo.ownerName}/${head.repo.name}:${pull.headBranch}` : pull.headBranch;
}

/**
 * Forgejo's `/{owner}/{repo}/issues/{index}` and `/pulls/{index}` (routers/web/repo/issue.go
 * `ViewIssue`): the issue, its timeline as `GET …/issues/{index}/timeline` answers it, labels,
 * assignees, milestone, reactions, attachments and participants; a pull request adds its header.
 * An issue asked for as a pull request (or the reverse) is redirected to its own path.
 */
async function viewIssue(c: WebContext, fields: Fields, asPull: boolean) {
  const services = c.get("services");
  const access = await pageRepo(c);
  const { repo } = access;
  const index = indexOf(c);
  const issue = await services.issues.get(access, index);
  if (issue.isPull !== asPull) return seeOther(c, issueLink(repo.ownerName, repo.name, index, issue.isPull));
  const paging = pageOf(fields, TIMELINE_PAGE);
  const [pull, timeline, [view], reactions, issueFiles] = await Promise.all([
    asPull ? services.pulls.get(access, index) : Promise.resolve(undefined),
    services.timeline.list(access, index, {}, paging),
    services.issues.views([issue], [repo]),
    services.reactions.counts(access, index),
    services.attachments.ofIssues([issue.id]),
  ]);
  if (!view) throw new NotFoundError();
  const entries = timeline.items;
  const [commentFiles, bodies, issueHtml, head] = await Promise.all([
    services.attachments.ofComments(entries.map((e) => e.comment.id)),
    bodiesOf(services, c, access, entries),
    issue.content
      ? services.markup.render(c.get("actor"), {
          text: issue.content,
          mode: "comment",
          context: `${repo.ownerName}/${repo.name}`,
        })
      : Promise.resolve(""),
    pull ? headOf(services, access, pull.pull) : Promise.resolve(""),
  ]);
  const files = new Map<number, typeof commentFiles>();
  for (const f of commentFiles)
    if (f.commentId !== null) files.set(f.commentId, [...(files.get(f.commentId) ?? []), f]);
  const extras: TimelineExtras = { bodies, reactions, files, baseBranch: pull?.pull.baseBranch };
  const participants = new Map<number, User>();
  if (view.poster) participants.set(view.poster.id, view.poster);
  for (const e of entries)
    if (e.poster && e.comment.type === CommentType.comment) participants.set(e.poster.id, e.poster);
  const path = issueLink(repo.ownerName, repo.name, index, asPull);
  const listPath = `${repoPath(repo.ownerName, repo.name)}/${asPull ? "pulls" : "issues"}`;
  const state = pull?.pull.hasMerged ? "merged" : issue.isClosed ? "closed" : "open";
  return render(
    c,
    {
      title: `${issue.title} - #${index} - ${repo.ownerName}/${repo.name}`,
      repo: repoHeaderOf(access, asPull ? "pulls" : "issues"),
    },
    <>
      <LabelStyles labels={[...view.labels, ...entries.flatMap((e) => (e.label ? [e.label] : []))]} />
      <div class="issue-title-row">
        <h2 class="issue-title">
          {issue.title} <span class="muted">#{index}</span>
        </h2>
        {!pull ? (
          <span class={`state-badge state-${state}`}>
            <Icon name={issue.isClosed ? "issue-closed" : "issue-opened"} />{" "}
            {issue.isClosed ? "Closed" : "Open"}
          </span>
        ) : null}
        {issue.isLocked ? (
          <span class="badge">
            <Icon name="lock" /> Locked
          </span>
        ) : null}
      </div>
      {pull ? <PullHeader pull={pull.pull} closed={issue.isClosed} head={head} path={path} /> : null}
      <div class="columns">
        <div class="column-main">
          <Post
            id="issue-body"
            author={view.poster}
            verb="opened this"
            at={issue.createdAt}
            html={issueHtml || undefined}
            files={issueFiles}
            reactions={reactions.get(0)}
          />
          <Timeline entries={entries} extras={extras} />
          <Pagination path={path} query={{}} page={paging} total={timeline.total} />
        </div>
        <IssueSidebar view={view} listPath={listPath} participants={[...participants.values()]} />
      </div>
    </>,
  );
}

/** Forgejo's `/{owner}/{repo}/issues/{index}`. */
export const issueViewPage = page({
  method: "get",
  path: "/:username/:reponame/issues/:index",
  access: "public",
  handler: (c, fields) => viewIssue(c, fields, false),
});

/** Forgejo's `/{owner}/{repo}/pulls/{index}`: the conversation of a pull request. */
export const pullViewPage = page({
  method: "get",
  path: "/:username/:reponame/pulls/:index",
  access: "public",
  handler: (c, fields) => viewIssue(c, fields, true),
});
