import type { PullIssue } from "@kiln/service";
import { TabNav } from "../../components/tab-nav.js";
import { pullPath } from "./history-paths.js";

/**
 * The top of a pull request's commits and files pages: its title and number, its state and
 * branches, and the tabs Conversation (the pull request's own page), Commits and Files changed.
 */
export function PullHeader(props: {
  owner: string;
  repo: string;
  pull: PullIssue;
  current: "commits" | "files";
}) {
  const { issue, pull } = props.pull;
  const state = pull.hasMerged ? "Merged" : issue.isClosed ? "Closed" : "Open";
  return (
    <div class="pull-header">
      <h2 class="pull-title">
        {issue.title} <span class="muted">#{issue.index}</span>
      </h2>
      <p class="meta">
        <span class={`badge pull-state-${state.toLowerCase()}`}>{state}</span> wants to merge{" "}
        <code>{pull.headBranch}</code> into <code>{pull.baseBranch}</code>
      </p>
      <TabNav
        label="Pull request"
        tabs={[
          {
            label: "Conversation",
            path: pullPath(props.owner, props.repo, issue.index),
            icon: "comment",
            current: false,
          },
          {
            label: "Commits",
            path: pullPath(props.owner, props.repo, issue.index, "commits"),
            icon: "git-commit",
            count: pull.commitsAhead,
            current: props.current === "commits",
          },
          {
            label: "Files changed",
            path: pullPath(props.owner, props.repo, issue.index, "files"),
            icon: "file-diff",
            count: pull.changedFiles,
            current: props.current === "files",
          },
        ]}
      />
    </div>
  );
}
