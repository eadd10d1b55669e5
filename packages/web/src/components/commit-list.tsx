import type { CommitsView } from "@kiln/service";
import { useHref } from "../layout/frame.js";
import { commitPath, shortSha } from "../routes/repo/history-paths.js";
import { CommitPerson } from "./commit-author.js";
import { SignatureBadge } from "./signature-badge.js";
import { TimeAgo } from "./time-ago.js";

/** A commit message's first line (its title). */
export function commitTitle(message: string): string {
  return message.split("\n", 1)[0]?.trim() ?? "";
}

/**
 * A table of commits (Forgejo's commits_table): author with avatar, short sha linking to the
 * commit page with its signature badge, message title, and when it was committed. Used by the
 * history pages and a pull request's commits tab.
 */
export function CommitList(props: { owner: string; repo: string; view: CommitsView; caption: string }) {
  const href = useHref();
  const { commits, users, verifications } = props.view;
  if (commits.length === 0) return <p class="empty">No commits.</p>;
  return (
    <div class="table-scroll">
      <table class="commit-table">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Author</th>
            <th scope="col">SHA1</th>
            <th scope="col">Message</th>
            <th scope="col">Date</th>
          </tr>
        </thead>
        <tbody>
          {commits.map((commit) => {
            const link = href(commitPath(props.owner, props.repo, commit.sha));
            return (
              <tr>
                <td>
                  <CommitPerson person={commit.author} users={users} />
                </td>
                <td class="commit-sha-cell">
                  <a class="commit-sha" href={link} aria-label={`Commit ${shortSha(commit.sha)}`}>
                    {shortSha(commit.sha)}
                  </a>{" "}
                  <SignatureBadge verification={verifications?.get(commit.sha)} />
                </td>
                <td class="commit-message">
                  <a href={link}>{commitTitle(commit.message)}</a>
                </td>
                <td>
                  <TimeAgo date={new Date(commit.committer.timestamp * 1000)} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
