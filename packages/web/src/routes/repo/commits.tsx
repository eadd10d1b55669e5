import type { RefKind } from "@kiln/service";
import { CommitList } from "../../components/commit-list.js";
import { Pagination } from "../../components/pagination.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoPath } from "../../urls.js";
import { historyPage, limitQuery } from "./history-paging.js";
import { CODE_PAGE, commitsPath } from "./history-paths.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

/**
 * Forgejo's `/{owner}/{repo}/commits/{branch|tag|commit}/{ref}[/{path}]` (RefCommits): a page of
 * the history from a ref, or of one path's history. A branch's name may contain slashes; the
 * shortest leading part that names one is the branch. Newest first, `?page=` and `?limit=`
 * (at most Forgejo's 50).
 */
export const commitsPage = page({
  method: "get",
  path: "/:username/:reponame/commits/:kind{branch|tag|commit}/:refpath{.+}",
  access: "public",
  variants: ["page=2", "limit=1&page=1"],
  async handler(c, fields) {
    const services = c.get("services");
    const access = await pageRepo(c, CODE_PAGE);
    const { repo } = access;
    const kind = c.req.param("kind") as RefKind;
    const target = await services.sources.resolve(repo, kind, c.req.param("refpath") ?? "");
    const paging = historyPage(fields);
    const list = await services.commits.list(repo, {
      sha: target.fullRef,
      ...(target.path ? { path: target.path } : {}),
      page: paging.page,
      limit: paging.limit,
      files: false,
      stat: false,
    });
    const here = commitsPath(repo.ownerName, repo.name, kind, target.name, target.path);
    const heading = target.path ? `History of ${target.path}` : "Commits";
    return render(
      c,
      {
        title: `${heading} · ${repo.ownerName}/${repo.name}`,
        repo: repoHeaderOf(access, "code"),
        crumbs: [
          { label: repo.name, path: repoPath(repo.ownerName, repo.name) },
          { label: target.name },
          ...(target.path ? [{ label: target.path }] : []),
        ],
      },
      <section aria-labelledby="commits-title">
        <h2 id="commits-title">
          {heading} <span class="muted">on {kind === "commit" ? target.name.slice(0, 10) : target.name}</span>{" "}
          <span class="counter">{list.total}</span>
        </h2>
        <CommitList owner={repo.ownerName} repo={repo.name} view={list} caption={heading} />
        <Pagination path={here} query={limitQuery(paging)} page={paging} total={list.total} />
      </section>,
    );
  },
});
