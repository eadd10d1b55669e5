import { NotFoundError } from "@kiln/domain";
import type { BranchView, Divergence } from "@kiln/service";
import { branchDivergence } from "@kiln/service";
import { CommitPerson } from "../../components/commit-author.js";
import { commitTitle } from "../../components/commit-list.js";
import { Icon } from "../../components/icon.js";
import { Pagination } from "../../components/pagination.js";
import { SignatureBadge } from "../../components/signature-badge.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoPath } from "../../urls.js";
import { BRANCHES_PAGE_SIZE, historyPage } from "./history-paging.js";
import { CODE_PAGE, commitPath, commitsPath, shortSha } from "./history-paths.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

function BranchRow(props: { owner: string; repo: string; view: BranchView; divergence?: Divergence }) {
  const href = useHref();
  const { branch, users, verification } = props.view;
  const { commit } = branch;
  return (
    <li class="list-item">
      <div class="list-item-main">
        <h3 class="list-item-title">
          <Icon name="git-branch" />{" "}
          <a href={href(commitsPath(props.owner, props.repo, "branch", branch.name))}>
            <strong>{branch.name}</strong>
          </a>
          {branch.isDefault ? <span class="badge">Default</span> : null}
          {props.view.rule ? <span class="badge">Protected</span> : null}
        </h3>
        <p class="list-item-text">
          <a class="commit-sha" href={href(commitPath(props.owner, props.repo, commit.sha))}>
            {shortSha(commit.sha)}
          </a>{" "}
          <SignatureBadge verification={verification} /> {commitTitle(commit.message)}
        </p>
        <p class="meta">
          <CommitPerson person={commit.committer} users={users} /> updated{" "}
          <TimeAgo date={new Date(commit.committer.timestamp * 1000)} />
        </p>
      </div>
      {props.divergence ? (
        <div class="list-item-meta branch-divergence">
          <span>{props.divergence.behind} behind</span>
          <span>{props.divergence.ahead} ahead</span>
        </div>
      ) : null}
    </li>
  );
}

/**
 * Forgejo's `/{owner}/{repo}/branches`: the default branch first, then the others, newest commit
 * first and paged (Forgejo's 20), each with its last commit and how many commits it is ahead of
 * and behind the default branch. An empty repository has no such page (404, as Forgejo's
 * MustBeNotEmpty).
 */
export const branchesPage = page({
  method: "get",
  path: "/:username/:reponame/branches",
  access: "public",
  variants: ["page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const access = await pageRepo(c, CODE_PAGE);
    const { repo } = access;
    if (repo.isEmpty) throw new NotFoundError("the repository is empty");
    const paging = historyPage(fields, BRANCHES_PAGE_SIZE);
    const listed = await services.branches.list(access, paging);
    const defaultView = await services.branches.get(access, repo.defaultBranch).catch(() => undefined);
    const others = listed.items.filter((v) => !v.branch.isDefault);
    const divergence = defaultView
      ? await branchDivergence(
          services.repositories,
          repo,
          defaultView.branch.commit.sha,
          others.map((v) => v.branch.commit.sha),
        )
      : new Map<string, Divergence>();
    const row = (view: BranchView) => {
      const d = divergence.get(view.branch.commit.sha);
      return (
        <BranchRow owner={repo.ownerName} repo={repo.name} view={view} {...(d ? { divergence: d } : {})} />
      );
    };
    return render(
      c,
      {
        title: `Branches · ${repo.ownerName}/${repo.name}`,
        repo: repoHeaderOf(access, "code"),
        crumbs: [{ label: repo.name, path: repoPath(repo.ownerName, repo.name) }, { label: "Branches" }],
      },
      <>
        {defaultView ? (
          <section aria-labelledby="default-branch-title">
            <h2 id="default-branch-title">Default branch</h2>
            <ul class="list">{row(defaultView)}</ul>
          </section>
        ) : null}
        <section aria-labelledby="branches-title">
          <h2 id="branches-title">
            Branches <span class="counter">{listed.total}</span>
          </h2>
          {others.length > 0 ? (
            <ul class="list">{others.map(row)}</ul>
          ) : (
            <p class="empty">No other branches.</p>
          )}
          <Pagination
            path={`${repoPath(repo.ownerName, repo.name)}/branches`}
            query={{}}
            page={paging}
            total={listed.total}
          />
        </section>
      </>,
    );
  },
});
