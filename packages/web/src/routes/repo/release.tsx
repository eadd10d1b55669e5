import { NotFoundError } from "@kiln/domain";
import { canRead } from "@kiln/service";
import { Pagination } from "../../components/pagination.js";
import type { WebContext } from "../../env.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { pageOf } from "../../paging.js";
import { repoPath } from "../../urls.js";
import { pageRepo } from "./page-repo.js";
import { ReleaseItem, releaseViews } from "./release-view.js";
import { repoHeaderOf } from "./repo-tabs.js";

/** Releases a page of the list shows (Forgejo's `[repository.release] DEFAULT_PAGING_NUM`, 10). */
const RELEASES_PER_PAGE = 10;
/** The longest tag a page looks up (git refs of Kiln are shorter). */
const MAX_TAG = 255;

/**
 * The repository for a releases page, as the API's release routes resolve it: 404 when the
 * visitor may not see it or may not read its releases.
 */
function releasesAccess(c: WebContext) {
  return pageRepo(c, {
    read: "repo.releases",
    hiddenWithout: "repo.releases",
  });
}

/**
 * Forgejo's `/{owner}/{repo}/releases` (routers/web/repo/release.go Releases): newest first, ten a
 * page, drafts only for those who may write releases (the release service decides, as for the API).
 */
export const releaseList = page({
  method: "get",
  path: "/:username/:reponame/releases",
  access: "public",
  async handler(c, fields) {
    const services = c.get("services");
    const access = await releasesAccess(c);
    const { repo } = access;
    const paging = pageOf(fields, RELEASES_PER_PAGE);
    const list = await services.releases.list(access, {}, paging);
    const views = await releaseViews(services, c.get("settings"), c.get("actor"), repo, list.items);
    const codeReadable = canRead(access.permission, "repo.code");
    return render(
      c,
      { title: `Releases · ${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "releases") },
      <section class="releases" aria-labelledby="releases-title">
        <h2 id="releases-title" class="visually-hidden">
          Releases
        </h2>
        {views.length === 0 ? <p class="notice">This repository has no releases yet.</p> : null}
        {views.map((view) => (
          <ReleaseItem view={view} repo={repo} codeReadable={codeReadable} />
        ))}
        <Pagination
          path={`${repoPath(repo.ownerName, repo.name)}/releases`}
          query={{}}
          page={paging}
          total={list.total}
        />
      </section>,
    );
  },
});

/** Forgejo's `/{owner}/{repo}/releases/tag/{tag}` (SingleRelease): one release, 404 for a hidden draft. */
export const releaseByTag = page({
  method: "get",
  path: "/:username/:reponame/releases/tag/:tag{.+}",
  access: "public",
  async handler(c) {
    const services = c.get("services");
    const access = await releasesAccess(c);
    const tag = c.req.param("tag") ?? "";
    if (tag.length > MAX_TAG) throw new NotFoundError("release tag does not exist");
    const row = await services.releases.getByTag(access, tag);
    const [view] = await releaseViews(services, c.get("settings"), c.get("actor"), access.repo, [row]);
    const { repo } = access;
    return render(
      c,
      {
        title: `${row.title || row.tagName} · ${repo.ownerName}/${repo.name}`,
        repo: repoHeaderOf(access, "releases"),
      },
      <section class="releases">
        {view ? (
          <ReleaseItem view={view} repo={repo} codeReadable={canRead(access.permission, "repo.code")} />
        ) : null}
      </section>,
    );
  },
});

export const releaseRoutes = [releaseList, releaseByTag];
