import { type Attachment, CommentType, type User } from "@kiln/domain";
import type { TimelineEntry } from "@kiln/service";
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { useHref } from "../layout/frame.js";
import { accountPath } from "../urls.js";
import { AttachmentList } from "./attachment-list.js";
import { Avatar } from "./avatar.js";
import { Icon } from "./icon.js";
import { Reactions } from "./reactions.js";
import { TimeAgo } from "./time-ago.js";
import { EventText } from "./timeline-event.js";

/** What the timeline shows besides the entries: rendered bodies, reactions and attachments by comment id. */
export interface TimelineExtras {
  /** Sanitized HTML (from the markup service) of each comment with a body. */
  readonly bodies: ReadonlyMap<number, string>;
  readonly reactions: ReadonlyMap<number, readonly { type: string; count: number }[]>;
  readonly files: ReadonlyMap<number, readonly Attachment[]>;
  readonly baseBranch?: string | undefined;
}

/** The kinds shown as a post with a body (a comment, a line comment, a review with words). */
const POSTS: ReadonlySet<number> = new Set([CommentType.comment, CommentType.code, CommentType.review]);

/**
 * A post: its author and time, the body as the markup service rendered and sanitized it (the only
 * HTML put in raw), its attachments and reactions.
 */
export function Post(props: {
  id: string;
  author: User | null;
  verb: string;
  at: Date;
  html: string | undefined;
  files?: readonly Attachment[] | undefined;
  reactions?: readonly { type: string; count: number }[] | undefined;
}) {
  const href = useHref();
  return (
    <article class="post" id={props.id} aria-label={`${props.author?.name ?? "Ghost"} ${props.verb}`}>
      <header class="post-header">
        {props.author ? <Avatar user={props.author} /> : null}
        {props.author ? <a href={href(accountPath(props.author.name))}>{props.author.name}</a> : "Ghost"}{" "}
        <span class="muted">
          {props.verb} <TimeAgo date={props.at} />
        </span>
      </header>
      <div class="post-body markup">
        {props.html ? raw(props.html) : <p class="muted">No description provided.</p>}
      </div>
      <AttachmentList files={props.files} />
      <Reactions counts={props.reactions} />
    </article>
  );
}

function eventIcon(type: number) {
  switch (type) {
    case CommentType.close:
      return "issue-closed" as const;
    case CommentType.reopen:
      return "issue-opened" as const;
    case CommentType.label:
      return "tag" as const;
    case CommentType.milestone:
      return "milestone" as const;
    case CommentType.assignees:
    case CommentType.reviewRequest:
      return "person" as const;
    case CommentType.mergePull:
      return "git-merge" as const;
    case CommentType.commitRef:
    case CommentType.pullPush:
      return "git-commit" as const;
    case CommentType.lock:
      return "lock" as const;
    case CommentType.unlock:
      return "unlock" as const;
    case CommentType.deleteBranch:
    case CommentType.changeTargetBranch:
      return "git-branch" as const;
    case CommentType.changeTitle:
      return "pencil" as const;
    case CommentType.issueRef:
    case CommentType.commentRef:
    case CommentType.pullRef:
      return "cross-reference" as const;
    default:
      return "clock" as const;
  }
}

/** One event: its icon, who did it, what (in words) and when. */
function Event(props: { entry: TimelineEntry; baseBranch?: string | undefined }): Child {
  const href = useHref();
  const { comment, poster } = props.entry;
  return (
    <li class="timeline-event" id={`issuecomment-${comment.id}`}>
      <Icon name={eventIcon(comment.type)} />
      <span>
        {poster ? <a href={href(accountPath(poster.name))}>{poster.name}</a> : "Ghost"}{" "}
        <EventText entry={props.entry} baseBranch={props.baseBranch} /> <TimeAgo date={comment.createdAt} />
      </span>
    </li>
  );
}

/**
 * An issue's or pull request's timeline as the timeline service gives it, oldest first:
 * comments as posts, every other entry as one line saying what changed.
 */
export function Timeline(props: { entries: readonly TimelineEntry[]; extras: TimelineExtras }) {
  const { extras } = props;
  return (
    <ol class="timeline" aria-label="Timeline">
      {props.entries.map((entry) => {
        const { comment } = entry;
        if (!POSTS.has(comment.type) || (comment.type === CommentType.review && !comment.content)) {
          return <Event entry={entry} baseBranch={extras.baseBranch} />;
        }
        return (
          <li class="timeline-post">
            <Post
              id={`issuecomment-${comment.id}`}
              author={entry.poster}
              verb={comment.type === CommentType.review ? "reviewed" : "commented"}
              at={comment.createdAt}
              html={extras.bodies.get(comment.id)}
              files={extras.files.get(comment.id)}
              reactions={extras.reactions.get(comment.id)}
            />
          </li>
        );
      })}
    </ol>
  );
}
