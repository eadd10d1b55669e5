import { CommentType } from "@kiln/domain";
import type { TimelineEntry } from "@kiln/service";
import type { Child } from "hono/jsx";
import { useHref } from "../layout/frame.js";
import { accountPath } from "../urls.js";
import { issueLink } from "./issue-row.js";
import { LabelBadge } from "./label-badge.js";

const T = CommentType;

/** Text of a stored HTML snippet (a commit reference's title): tags dropped, entities read. */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** A tracked time as stored in an event (`|seconds`), as hours and minutes. */
function duration(content: string): string {
  const seconds = /^\|-?\d{1,15}$/.test(content) ? Math.abs(Number(content.slice(1))) : 0;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

function Person(props: { name: string | undefined }) {
  const href = useHref();
  return props.name ? <a href={href(accountPath(props.name))}>{props.name}</a> : <>Ghost</>;
}

/**
 * What an event of the timeline says after its actor's name ("added the bug label"), for every
 * kind the timeline service gives; a kind without words of its own says its API name.
 */
export function EventText(props: { entry: TimelineEntry; baseBranch?: string | undefined }): Child {
  const href = useHref();
  const { comment: c, label, milestone, oldMilestone, assignee, dependentIssue } = props.entry;
  const sha = c.commitSha.slice(0, 10);
  switch (c.type) {
    case T.reopen:
      return "reopened this";
    case T.close:
      return "closed this";
    case T.issueRef:
    case T.commentRef:
    case T.pullRef:
      return "referenced this";
    case T.commitRef:
      return (
        <>
          referenced this in commit <code>{sha}</code>
          {c.content ? <> ({plainText(c.content)})</> : null}
        </>
      );
    case T.label:
      return label ? (
        <>
          {c.content === "1" ? "added the" : "removed the"} <LabelBadge label={label} /> label
        </>
      ) : (
        "changed the labels"
      );
    case T.milestone:
      if (milestone && oldMilestone)
        return `modified the milestone from ${oldMilestone.name} to ${milestone.name}`;
      if (milestone) return `added this to the ${milestone.name} milestone`;
      return oldMilestone ? `removed this from the ${oldMilestone.name} milestone` : "changed the milestone";
    case T.assignees:
      if (c.removedAssignee)
        return (
          <>
            unassigned <Person name={assignee?.name} />
          </>
        );
      return assignee && assignee.id === c.posterId ? (
        "self-assigned this"
      ) : (
        <>
          assigned <Person name={assignee?.name} />
        </>
      );
    case T.changeTitle:
      return (
        <>
          changed the title from <del>{c.oldTitle}</del> to <ins>{c.newTitle}</ins>
        </>
      );
    case T.deleteBranch:
      return (
        <>
          deleted branch <code>{c.oldRef}</code>
        </>
      );
    case T.startTracking:
      return "started working";
    case T.stopTracking:
      return `stopped working (${duration(c.content)})`;
    case T.addTimeManual:
      return `added spent time (${duration(c.content)})`;
    case T.cancelTracking:
      return "cancelled time tracking";
    case T.deleteTimeManual:
      return `deleted spent time (${duration(c.content)})`;
    case T.addedDeadline:
      return "added a due date";
    case T.modifiedDeadline:
      return "modified the due date";
    case T.removedDeadline:
      return "removed the due date";
    case T.addDependency:
    case T.removeDependency: {
      const verb = c.type === T.addDependency ? "added a new dependency" : "removed a dependency";
      if (!dependentIssue) return verb;
      const { issue, repo } = dependentIssue;
      return (
        <>
          {verb}{" "}
          <a href={href(issueLink(repo.ownerName, repo.name, issue.index, issue.isPull))}>{issue.title}</a>
        </>
      );
    }
    case T.review:
      return "reviewed";
    case T.lock:
      return c.content
        ? `locked as ${c.content} and limited conversation to collaborators`
        : "locked and limited conversation to collaborators";
    case T.unlock:
      return "unlocked this conversation";
    case T.changeTargetBranch:
      return (
        <>
          changed the target branch from <code>{c.oldRef}</code> to <code>{c.newRef}</code>
        </>
      );
    case T.reviewRequest:
      return c.removedAssignee ? (
        <>
          removed the review request for <Person name={assignee?.name} />
        </>
      ) : (
        <>
          requested a review from <Person name={assignee?.name} />
        </>
      );
    case T.mergePull:
      return (
        <>
          merged commit <code>{sha}</code>
          {props.baseBranch ? (
            <>
              {" "}
              into <code>{props.baseBranch}</code>
            </>
          ) : null}
        </>
      );
    case T.pullPush:
      return "pushed commits";
    case T.dismissReview:
      return "dismissed a review";
    case T.changeIssueRef:
      return c.newRef ? (
        <>
          set the reference to <code>{c.newRef}</code>
        </>
      ) : (
        "removed the reference"
      );
    case T.pullScheduledMerge:
      return "scheduled this to be merged when all checks succeed";
    case T.pullCancelScheduledMerge:
      return "cancelled the automatic merge";
    case T.pin:
      return "pinned this";
    case T.unpin:
      return "unpinned this";
    default:
      return `event: ${String(c.type)}`;
  }
}
