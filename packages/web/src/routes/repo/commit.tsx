import { DEFAULT_DIFF_LIMITS } from "@kiln/service";
import { CommitPerson } from "../../components/commit-author.js";
import { commitTitle } from "../../components/commit-list.js";
import { DiffView, diffStyleOf } from "../../components/diff/diff-view.js";
import { RenderedOnce } from "../../components/rendered-once.js";
import { SignatureBar } from "../../components/signature-badge.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoPath } from "../../urls.js";
import { CODE_PAGE, commitPath, commitsPath, shortSha } from "./history-paths.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

function Parents(props: { owner: string; repo: string; parents: readonly string[] }) {
  const href = useHref();
  if (props.parents.length === 0) return <span class="muted">no parent (a root commit)</span>;
  return (
    <span>
      {props.parents.length === 1 ? "parent" : "parents"}{" "}
      {props.parents.map((sha, i) => (
        <>
          {i > 0 ? ", " : ""}
          <a class="commit-sha" href={href(commitPath(props.owner, props.repo, sha))}>
            {shortSha(sha)}
          </a>
        </>
      ))}
    </span>
  );
}

/**
 * Forgejo's `/{owner}/{repo}/commit/{sha}` (repo.Diff): the commit's message, author and
 * committer, parents and signature check, and its diff against its first parent, unified or
 * split (`?style=split`), cut at Forgejo's MAX_GIT_DIFF_* bounds. The sha is 4 to 64 hex digits
 * (anything else matches no page); one that names no commit is 404.
 */
export const commitPage = page({
  method: "get",
  path: "/:username/:reponame/commit/:sha{[0-9a-f]{4,64}}",
  access: "public",
  variants: ["style=split"],
  async handler(c, fields) {
    const services = c.get("services");
    const access = await pageRepo(c, CODE_PAGE);
    const { repo } = access;
    const view = await services.commits.get(repo, c.req.param("sha") ?? "", { files: false, stat: false });
    const [commit] = view.commits;
    if (!commit) throw new Error("a commit lookup returned no commit");
    const diff = await services.commitDiffs.parsed(repo, commit.sha, DEFAULT_DIFF_LIMITS);
    const style = diffStyleOf(fields("style"));
    const [title = "", ...body] = commit.message.split("\n");
    const rest = body.join("\n").trim();
    const sameCommitter =
      commit.author.email === commit.committer.email && commit.author.name === commit.committer.name;
    return render(
      c,
      {
        title: `${commitTitle(commit.message)} · ${repo.ownerName}/${repo.name}@${shortSha(commit.sha)}`,
        repo: repoHeaderOf(access, "code"),
        crumbs: [
          { label: repo.name, path: repoPath(repo.ownerName, repo.name) },
          { label: "Commits", path: commitsPath(repo.ownerName, repo.name, "branch", repo.defaultBranch) },
          { label: shortSha(commit.sha) },
        ],
      },
      <>
        <section class="commit-header card" aria-labelledby="commit-title">
          <h2 id="commit-title" class="commit-title">
            {title}
          </h2>
          {rest ? <pre class="commit-body">{rest}</pre> : null}
          <p class="commit-meta">
            <CommitPerson person={commit.author} users={view.users} /> authored{" "}
            <TimeAgo date={new Date(commit.author.timestamp * 1000)} />
            {sameCommitter ? null : (
              <>
                {" · "}
                <CommitPerson person={commit.committer} users={view.users} /> committed{" "}
                <TimeAgo date={new Date(commit.committer.timestamp * 1000)} />
              </>
            )}
          </p>
          <p class="commit-meta">
            <Parents owner={repo.ownerName} repo={repo.name} parents={commit.parents} />
            {" · commit "}
            <code class="commit-sha">{commit.sha}</code>
          </p>
          <SignatureBar verification={view.verifications?.get(commit.sha)} />
        </section>
        {/* A commit's diff is the same for everyone who may read it. */}
        <RenderedOnce cacheKey={`commit-diff\u0000${repo.id}\u0000${commit.sha}\u0000${style}`}>
          <DiffView
            diff={diff}
            style={style}
            path={commitPath(repo.ownerName, repo.name, commit.sha)}
            limits={DEFAULT_DIFF_LIMITS}
          />
        </RenderedOnce>
      </>,
    );
  },
});
