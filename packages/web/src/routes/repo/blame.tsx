import { NotFoundError } from "@kiln/domain";
import type { RefKind, RefPath } from "@kiln/service";
import { BlameLines, type BlameRun } from "../../components/code/blame-lines.js";
import { formatSize } from "../../components/code/file-view.js";
import { highlightLines } from "../../components/code/highlight.js";
import { Icon } from "../../components/icon.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { basePath, repoPath } from "../../urls.js";
import { MAX_SHOWN_SIZE, refChoices } from "./code-files.js";
import { codePath } from "./code-paths.js";
import { repoHeaderOf } from "./repo-tabs.js";
import { CodeBar, codeAccess } from "./src.js";

function FileLinks(props: { owner: string; repo: string; at: RefPath }) {
  const href = useHref();
  const { owner, repo, at } = props;
  return (
    <nav class="file-actions button-row" aria-label="File">
      <a class="button button-small" href={href(codePath(owner, repo, "src", at, at.path))}>
        Normal view
      </a>
      <a class="button button-small" href={href(codePath(owner, repo, "raw", at, at.path))}>
        Raw
      </a>
      <a class="button button-small" href={href(codePath(owner, repo, "commits", at, at.path))}>
        <Icon name="history" /> History
      </a>
    </nav>
  );
}

/**
 * Forgejo's `/{owner}/{repo}/blame/{branch|tag|commit}/{ref}/{path}`: each line of a text file
 * with the commit that last changed it. Files the file page would not show as text (binary,
 * above 1 MiB) are only linked.
 */
export const blameRoutes = [
  page({
    method: "get",
    path: "/:username/:reponame/blame/:kind{branch|tag|commit}/:rest{.+}",
    access: "public",
    async handler(c) {
      const access = await codeAccess(c);
      const services = c.get("services");
      const found = await services.sources.resolve(
        access.repo,
        c.req.param("kind") as RefKind,
        c.req.param("rest") ?? "",
      );
      const view = await services.contents.contentsAt(access.repo, found, MAX_SHOWN_SIZE, 1);
      const item = view.items[0];
      if (view.kind !== "entry" || !item || item.entry.type !== "file") throw new NotFoundError();
      const at: RefPath = { ...found, name: view.ref.path };
      const { ownerName: owner, name: repo } = access.repo;
      const entry = item.entry;
      const content = "content" in entry ? entry.content : undefined;
      const text = content && !content.includes(0) ? new TextDecoder("utf-8").decode(content) : undefined;
      let body = (
        <p class="file-note">
          This file cannot be blamed here ({formatSize(entry.size)}, binary or too large).
        </p>
      );
      if (text !== undefined) {
        const result = await services.sources.blame(access.repo, at);
        const runs: BlameRun[] = result.hunks.map((h) => {
          const commit = result.commits.get(h.sha);
          return {
            line: h.line,
            count: h.count,
            sha: h.sha,
            summary: commit?.summary ?? "",
            author: commit?.authorName ?? "",
            time: commit?.authorTime ?? 0,
          };
        });
        const base = `${basePath(c.get("settings"))}${repoPath(owner, repo)}/commit/`;
        const lines = await highlightLines(entry.sha, entry.name, text);
        body = (
          <BlameLines
            lines={lines}
            runs={runs}
            commitHref={(sha) => `${base}${sha}`}
            label={`Blame of ${entry.name}`}
          />
        );
      }
      return render(
        c,
        { title: `${owner}/${repo}: blame of ${at.path} at ${at.name}`, repo: repoHeaderOf(access, "code") },
        <>
          <CodeBar access={access} at={at} choices={await refChoices(c, access)} />
          <section class="file" aria-labelledby="file-title">
            <div class="file-header">
              <h2 id="file-title" class="file-title">
                <Icon name="file" /> Blame of {entry.name}
              </h2>
              <FileLinks owner={owner} repo={repo} at={at} />
            </div>
            {body}
          </section>
        </>,
      );
    },
  }),
];
