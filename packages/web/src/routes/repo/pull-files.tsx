import { NotFoundError } from "@kiln/domain";
import { DEFAULT_DIFF_LIMITS, type RepoAccess } from "@kiln/service";
import { CommitList } from "../../components/commit-list.js";
import { DiffView, diffStyleOf } from "../../components/diff/diff-view.js";
import { Pagination } from "../../components/pagination.js";
import type { WebContext } from "../../env.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoPath } from "../../urls.js";
import { historyPage, limitQuery } from "./history-paging.js";
import { PULL_CODE_PAGE, pullPath } from "./history-paths.js";
import { pageRepo } from "./page-repo.js";
import { PullHeader } from "./pull-header.js";
import { reviewCommentsOf } from "./pull-review-comments.js";
import { repoHeaderOf } from "./repo-tabs.js";

/** Issue numbers are Forgejo's int64, but no repository gets near 2^31 of them: a larger one is no pull request. */
const MAX_INDEX = 2_147_483_647;

/** The repository (pulls and code readable, else 404 as through the API) and the pull request's number. */
async function pullTarget(c: WebContext): Promise<{ access: RepoAccess; index: number }> {
  const index = Number(c.req.param("index"));
  if (!Number.isSafeInteger(index) || index < 1 || index > MAX_INDEX)
    throw new NotFoundError("no such pull request");
  const access = await pageRepo(c, PULL_CODE_PAGE);
  return { access, index };
}

function pageOptions(access: RepoAccess, index: number, title: string, tab: string) {
  const { repo } = access;
  return {
    title: `${title} · ${repo.ownerName}/${repo.name}`,
    repo: repoHeaderOf(access, "pulls"),
    crumbs: [
      { label: repo.name, path: repoPath(repo.ownerName, repo.name) },
      { label: `#${index}`, path: pullPath(repo.ownerName, repo.name, index) },
      { label: tab },
    ],
  };
}

/**
 * Forgejo's `/{owner}/{repo}/pulls/{index}/files` (ViewPullFilesForAllCommitsOfPr): the pull
 * request's diff from its merge base to its head, unified or split (`?style=split`), with the
 * review comments the viewer may see under the lines they are about.
 */
export const pullFilesPage = page({
  method: "get",
  path: "/:username/:reponame/pulls/:index{[0-9]+}/files",
  access: "public",
  variants: ["style=split"],
  async handler(c, fields) {
    const services = c.get("services");
    const { access, index } = await pullTarget(c);
    const pull = await services.pulls.get(access, index);
    const [{ diff }, comments] = await Promise.all([
      services.pullCompare.parsedDiff(access, index, DEFAULT_DIFF_LIMITS),
      reviewCommentsOf(services, c.get("actor"), access, index),
    ]);
    const { repo } = access;
    return render(
      c,
      pageOptions(access, index, `${pull.issue.title} · Files changed`, "Files changed"),
      <>
        <PullHeader owner={repo.ownerName} repo={repo.name} pull={pull} current="files" />
        <DiffView
          diff={diff}
          style={diffStyleOf(fields("style"))}
          path={pullPath(repo.ownerName, repo.name, index, "files")}
          limits={DEFAULT_DIFF_LIMITS}
          comments={comments}
        />
      </>,
    );
  },
});

/** Forgejo's `/{owner}/{repo}/pulls/{index}/commits` (ViewPullCommits): the pull request's commits, newest first, paged. */
export const pullCommitsPage = page({
  method: "get",
  path: "/:username/:reponame/pulls/:index{[0-9]+}/commits",
  access: "public",
  variants: ["page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const { access, index } = await pullTarget(c);
    const pull = await services.pulls.get(access, index);
    const paging = historyPage(fields);
    const found = await services.pullCompare.commits(access, index, paging);
    const view = await services.commits.describe(access.repo, found.items, { files: false, stat: false });
    const { repo } = access;
    const path = pullPath(repo.ownerName, repo.name, index, "commits");
    return render(
      c,
      pageOptions(access, index, `${pull.issue.title} · Commits`, "Commits"),
      <>
        <PullHeader owner={repo.ownerName} repo={repo.name} pull={pull} current="commits" />
        <CommitList
          owner={repo.ownerName}
          repo={repo.name}
          view={view}
          caption="Commits of the pull request"
        />
        <Pagination path={path} query={limitQuery(paging)} page={paging} total={found.total} />
      </>,
    );
  },
});

/** The pull request pages of this file. */
export const pullFileRoutes = [pullFilesPage, pullCommitsPage];
