import type { FeedEntry } from "@kiln/service";
import type { Child } from "hono/jsx";
import { useHref } from "../layout/frame.js";
import { accountPath, repoPath } from "../urls.js";
import { Avatar } from "./avatar.js";
import { TimeAgo } from "./time-ago.js";

/** `index|text` (issue and comment entries) split. */
function issueRef(content: string): { index: string; text: string } {
  const bar = content.indexOf("|");
  return bar < 0
    ? { index: content, text: "" }
    : { index: content.slice(0, bar), text: content.slice(bar + 1) };
}

/** The short name of a ref (`refs/heads/main` → `main`). */
function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

/** What an entry says happened, in Forgejo's words (templates/user/dashboard/feeds.tmpl). */
function Sentence(props: { entry: FeedEntry }) {
  const href = useHref();
  const { entry } = props;
  const { repo, action } = entry;
  const repoLink = <a href={href(repoPath(repo.ownerName, repo.name))}>{`${repo.ownerName}/${repo.name}`}</a>;
  const issue = (kind: "issues" | "pulls"): Child => {
    const { index } = issueRef(action.content);
    return (
      <a
        href={href(`${repoPath(repo.ownerName, repo.name)}/${kind}/${index}`)}
      >{`${repo.ownerName}/${repo.name}#${index}`}</a>
    );
  };
  const ref = shortRef(action.refName);
  switch (entry.kind) {
    case "create_repo":
      return <>created repository {repoLink}</>;
    case "rename_repo":
      return (
        <>
          renamed repository from {action.content} to {repoLink}
        </>
      );
    case "transfer_repo":
      return (
        <>
          transferred repository {action.content} to {repoLink}
        </>
      );
    case "star_repo":
      return <>starred {repoLink}</>;
    case "watch_repo":
      return <>started watching {repoLink}</>;
    case "commit_repo":
    case "mirror_sync_push":
      return (
        <>
          pushed to <code>{ref}</code> at {repoLink}
        </>
      );
    case "push_tag":
    case "mirror_sync_create":
      return (
        <>
          pushed tag <code>{ref}</code> to {repoLink}
        </>
      );
    case "delete_tag":
    case "mirror_sync_delete":
      return (
        <>
          deleted tag <code>{ref}</code> from {repoLink}
        </>
      );
    case "delete_branch":
      return (
        <>
          deleted branch <code>{ref}</code> from {repoLink}
        </>
      );
    case "create_issue":
      return <>opened issue {issue("issues")}</>;
    case "close_issue":
      return <>closed issue {issue("issues")}</>;
    case "reopen_issue":
      return <>reopened issue {issue("issues")}</>;
    case "comment_issue":
      return <>commented on issue {issue("issues")}</>;
    case "create_pull_request":
      return <>opened pull request {issue("pulls")}</>;
    case "close_pull_request":
      return <>closed pull request {issue("pulls")}</>;
    case "reopen_pull_request":
      return <>reopened pull request {issue("pulls")}</>;
    case "merge_pull_request":
    case "auto_merge_pull_request":
      return <>merged pull request {issue("pulls")}</>;
    case "comment_pull":
      return <>commented on pull request {issue("pulls")}</>;
    case "approve_pull_request":
      return <>approved {issue("pulls")}</>;
    case "reject_pull_request":
      return <>suggested changes for {issue("pulls")}</>;
    case "pull_review_dismissed":
      return <>dismissed a review of {issue("pulls")}</>;
    case "pull_request_ready_for_review":
      return <>marked {issue("pulls")} ready for review</>;
    case "publish_release":
      return (
        <>
          released <code>{ref}</code> at {repoLink}
        </>
      );
    default:
      return <>acted on {repoLink}</>;
  }
}

/** The text under an entry: an issue's title or a comment's first line. */
function detail(entry: FeedEntry): string {
  if (entry.kind === "publish_release") return entry.action.content;
  if (/issue|pull/.test(entry.kind)) return issueRef(entry.action.content).text;
  return "";
}

/** An activity feed (Forgejo's dashboard news feed), newest first. */
export function Feed(props: { entries: readonly FeedEntry[] }) {
  const href = useHref();
  if (props.entries.length === 0) return <p class="empty">No activity yet.</p>;
  return (
    <ol class="feed">
      {props.entries.map((entry) => {
        const text = detail(entry);
        return (
          <li class="feed-item">
            {entry.actUser ? <Avatar user={entry.actUser} size={24} /> : null}
            <div>
              <p>
                {entry.actUser ? (
                  <a href={href(accountPath(entry.actUser.name))}>
                    <strong>{entry.actUser.name}</strong>
                  </a>
                ) : (
                  <strong>Someone</strong>
                )}{" "}
                <Sentence entry={entry} /> <TimeAgo date={entry.action.createdAt} />
              </p>
              {text ? <p class="feed-detail">{text}</p> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
