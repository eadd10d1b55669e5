import { type api, formatTime, type Settings } from "@kiln/domain";
import type { ComparedFile } from "@kiln/git";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import { isMergeable, isWorkInProgress } from "../pulls/merge-rules.js";
import type { PullView } from "../pulls/pull-views.js";
import { escapeSegments, type RepoLinks, repoLinks } from "./git.js";
import { apiUserOrGhost, toApiIssue } from "./issue.js";
import { toApiTeam } from "./org.js";
import { toApiUser } from "./user.js";

type ApiRepository = v.InferOutput<typeof api.Repository>;

/**
 * Forgejo's `PullRequest` (services/convert.ToAPIPullRequest): the issue's fields, both sides
 * with their current commits (`head.ref` is `refs/pull/N/head` once the branch is gone), the
 * merge and its merger. `url` is the web address, as Forgejo answers it. The conflicting files
 * are not shown (Forgejo's API has no field for them); a merge refusal names them. `repos` are the repositories of both sides in API shape for the caller.
 */
export function toApiPullRequest(
  view: PullView,
  repos: ReadonlyMap<number, ApiRepository>,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.PullRequest> {
  const { pull } = view;
  const issue = toApiIssue(view.issue, sight, settings);
  const links = repoLinks(view.issue.repo, settings);
  const html = `${links.html}/pulls/${pull.index}`;
  // A head repository the caller may not see is not among `repos`: neither it nor its id shows.
  const headRepo = view.head.repo && repos.has(view.head.repo.id) ? view.head.repo : null;
  const merged = pull.hasMerged;
  return {
    id: pull.id,
    url: html,
    number: pull.index,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees,
    requested_reviewers: view.requestedReviewers.map((user) => toApiUser(user, sight, settings)),
    requested_reviewers_teams: view.requestedTeams.map((team) => toApiTeam(team, null)),
    state: issue.state,
    draft: isWorkInProgress(view.issue.issue.title),
    is_locked: issue.is_locked,
    comments: issue.comments,
    review_comments: view.reviewComments,
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changedFiles,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    // Kiln's `mergeable` also says whether the required status checks pass (api-notes.md).
    mergeable: isMergeable(pull, view.issue.issue.title) && view.statusChecks?.passed !== false,
    merged,
    merged_at: merged && pull.mergedAt ? formatTime(pull.mergedAt) : null,
    merge_commit_sha: merged ? pull.mergedCommitId : null,
    merged_by: merged ? apiUserOrGhost(view.merger, sight, settings) : null,
    allow_maintainer_edit: pull.allowMaintainerEdit,
    base: {
      label: view.base.ref,
      ref: view.base.ref,
      sha: view.base.sha,
      repo_id: pull.baseRepoId,
      repo: repos.get(pull.baseRepoId) ?? null,
    },
    head: {
      label: pull.headBranch,
      ref: view.head.ref,
      sha: view.head.sha,
      repo_id: headRepo?.id ?? -1,
      repo: headRepo ? (repos.get(headRepo.id) ?? null) : null,
    },
    merge_base: pull.mergeBase,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
    flow: 0,
  };
}

/** Forgejo's `ChangedFile`: a modified file without changed lines (binary, mode only) is `unchanged`. */
export function toApiChangedFile(
  file: ComparedFile,
  links: RepoLinks,
  headSha: string,
): v.InferOutput<typeof api.ChangedFile> {
  const path = escapeSegments(file.filename);
  const status =
    file.status === "modified" || file.status === "changed"
      ? file.additions + file.deletions === 0
        ? "unchanged"
        : "changed"
      : file.status;
  return {
    filename: file.filename,
    ...(file.previousFilename !== undefined ? { previous_filename: file.previousFilename } : {}),
    status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    html_url: `${links.html}/src/commit/${headSha}/${path}`,
    contents_url: `${links.api}/contents/${path}?ref=${headSha}`,
    raw_url: `${links.html}/raw/commit/${headSha}/${path}`,
  };
}
