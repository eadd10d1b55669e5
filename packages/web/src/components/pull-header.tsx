import { type PullRequest, PullStatus } from "@kiln/domain";
import { Icon } from "./icon.js";
import { TabNav } from "./tab-nav.js";

/** What Kiln knows about merging the pull request, in words (read-only: merging is another form). */
function mergeability(pull: PullRequest, closed: boolean): string {
  if (pull.hasMerged) return "This pull request was merged.";
  if (closed) return "This pull request is closed.";
  switch (pull.status) {
    case PullStatus.conflict:
      return "This pull request has changes conflicting with the target branch.";
    case PullStatus.checking:
      return "Checking for conflicts…";
    case PullStatus.mergeable:
      return "This branch has no conflicts with the target branch and can be merged.";
    case PullStatus.empty:
      return "This branch changes nothing in the target branch.";
    case PullStatus.ancestor:
      return "This branch is already included in the target branch.";
    case PullStatus.manuallyMerged:
      return "This pull request was merged manually.";
    default:
      return "Kiln could not check whether this pull request can be merged.";
  }
}

/**
 * A pull request's header: its state, `base ← head` and the tabs Conversation, Commits and Files
 * changed (the last two are pages of their own).
 */
export function PullHeader(props: { pull: PullRequest; closed: boolean; head: string; path: string }) {
  const { pull } = props;
  const state = pull.hasMerged ? "merged" : props.closed ? "closed" : "open";
  return (
    <>
      <p class="pull-branches">
        <span class={`state-badge state-${state}`}>
          <Icon
            name={
              state === "merged"
                ? "git-merge"
                : state === "closed"
                  ? "git-pull-request-closed"
                  : "git-pull-request"
            }
          />{" "}
          {state === "merged" ? "Merged" : state === "closed" ? "Closed" : "Open"}
        </span>{" "}
        <span>
          wants to merge into <code class="branch">{pull.baseBranch}</code> <span aria-hidden="true">←</span>{" "}
          from <code class="branch">{props.head}</code>
        </span>
      </p>
      <p class={`notice merge-state merge-${state}`}>{mergeability(pull, props.closed)}</p>
      <TabNav
        label="Pull request"
        tabs={[
          { label: "Conversation", path: props.path, icon: "comment", current: true },
          {
            label: "Commits",
            path: `${props.path}/commits`,
            icon: "git-commit",
            count: pull.commitsAhead,
            current: false,
          },
          {
            label: "Files changed",
            path: `${props.path}/files`,
            icon: "file-diff",
            count: pull.changedFiles,
            current: false,
          },
        ]}
      />
    </>
  );
}
