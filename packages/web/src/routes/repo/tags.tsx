import { NotFoundError } from "@kiln/domain";
import type { Services } from "@kiln/service";
import { commitTitle } from "../../components/commit-list.js";
import { Icon } from "../../components/icon.js";
import { Pagination } from "../../components/pagination.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoPath } from "../../urls.js";
import { BRANCHES_PAGE_SIZE, historyPage } from "./history-paging.js";
import { CODE_PAGE, commitPath, commitsPath, pathSegments, shortSha } from "./history-paths.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

/** A tag as the tag service lists it. */
type TagView = Awaited<ReturnType<Services["tags"]["list"]>>["items"][number];

function TagRow(props: { owner: string; repo: string; tag: TagView }) {
  const href = useHref();
  const { tag } = props;
  const when = tag.tagger?.timestamp ?? tag.commit?.committer.timestamp;
  const archive = `${repoPath(props.owner, props.repo)}/archive/${pathSegments(tag.name)}`;
  return (
    <li class="list-item">
      <div class="list-item-main">
        <h3 class="list-item-title">
          <Icon name="tag" />{" "}
          <a href={href(commitsPath(props.owner, props.repo, "tag", tag.name))}>
            <strong>{tag.name}</strong>
          </a>
        </h3>
        {tag.commit ? (
          <p class="list-item-text">
            <a class="commit-sha" href={href(commitPath(props.owner, props.repo, tag.commit.sha))}>
              {shortSha(tag.commit.sha)}
            </a>{" "}
            {commitTitle(tag.message?.trim() ? tag.message : tag.commit.message)}
          </p>
        ) : null}
        <p class="meta">
          {when !== undefined ? <TimeAgo date={new Date(when * 1000)} /> : null}
          {" · "}
          <a href={href(`${archive}.zip`)} aria-label={`Download ${tag.name} as ZIP`}>
            <Icon name="download" /> ZIP
          </a>{" "}
          <a href={href(`${archive}.tar.gz`)} aria-label={`Download ${tag.name} as TAR.GZ`}>
            <Icon name="download" /> TAR.GZ
          </a>
        </p>
      </div>
    </li>
  );
}

/**
 * Forgejo's `/{owner}/{repo}/tags`: tags newest first, paged, each with its commit, date and
 * download links (`/archive/{tag}.zip|.tar.gz`). An empty repository has no such page (404).
 */
export const tagsPage = page({
  method: "get",
  path: "/:username/:reponame/tags",
  access: "public",
  variants: ["page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const access = await pageRepo(c, CODE_PAGE);
    const { repo } = access;
    if (repo.isEmpty) throw new NotFoundError("the repository is empty");
    const paging = historyPage(fields, BRANCHES_PAGE_SIZE);
    const listed = await services.tags.list(repo, paging);
    return render(
      c,
      {
        title: `Tags · ${repo.ownerName}/${repo.name}`,
        repo: repoHeaderOf(access, "code"),
        crumbs: [{ label: repo.name, path: repoPath(repo.ownerName, repo.name) }, { label: "Tags" }],
      },
      <section aria-labelledby="tags-title">
        <h2 id="tags-title">
          Tags <span class="counter">{listed.total}</span>
        </h2>
        {listed.items.length > 0 ? (
          <ul class="list">
            {listed.items.map((tag) => (
              <TagRow owner={repo.ownerName} repo={repo.name} tag={tag} />
            ))}
          </ul>
        ) : (
          <p class="empty">No tags yet.</p>
        )}
        <Pagination
          path={`${repoPath(repo.ownerName, repo.name)}/tags`}
          query={{}}
          page={paging}
          total={listed.total}
        />
      </section>,
    );
  },
});
