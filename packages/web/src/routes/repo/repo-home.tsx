import { NotFoundError } from "@kiln/domain";
import { type ContentsView, canRead, type RefPath, type RepoAccess } from "@kiln/service";
import { LanguageBar } from "../../components/code/language-bar.js";
import { RefSelector } from "../../components/code/ref-selector.js";
import { TreeList } from "../../components/code/tree-list.js";
import { Icon } from "../../components/icon.js";
import { TimeAgo } from "../../components/time-ago.js";
import type { WebContext } from "../../env.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { readmeOf, refChoices } from "./code-files.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";
import { Readme } from "./src.js";

/** The default branch's root, README, languages and ref choices; undefined when the branch is gone. */
async function codeOf(c: WebContext, access: RepoAccess) {
  const services = c.get("services");
  const branch = access.repo.defaultBranch;
  const at: RefPath = { kind: "branch", name: branch, path: "", fullRef: `refs/heads/${branch}` };
  let view: ContentsView;
  try {
    view = await services.contents.contentsAt(access.repo, at, 0, c.get("settings").api.maxDirectoryEntries);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const [readme, languages, choices] = await Promise.all([
    readmeOf(c, access, at, view.items),
    services.gitObjects.languages(access.repo),
    refChoices(c, access),
  ]);
  return { at, view, readme, languages, choices };
}

/**
 * Forgejo's repository home `/{owner}/{repo}`: the description and topics, the languages bar, the
 * branch and tag selector, the default branch's root with each entry's last commit, its README,
 * and the clone URL with a copy button. An empty repository says so; a visitor who may not read
 * the code sees the header and description only.
 */
export const repoHome = page({
  method: "get",
  path: "/:username/:reponame",
  access: "public",
  async handler(c) {
    const access = await pageRepo(c);
    const { repo } = access;
    const code =
      !repo.isEmpty && canRead(access.permission, "repo.code") ? await codeOf(c, access) : undefined;
    const cloneUrl = `${c.get("settings").server.rootUrl}${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}.git`;
    return render(
      c,
      { title: `${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "code") },
      <div class="columns">
        <section class="column-main" aria-labelledby="about-title">
          <h2 id="about-title" class="visually-hidden">
            About
          </h2>
          {repo.description ? (
            <p class="repo-description">{repo.description}</p>
          ) : (
            <p class="muted">No description.</p>
          )}
          {repo.topics.length > 0 ? (
            <ul class="topics" aria-label="Topics">
              {repo.topics.map((t) => (
                <li class="topic">{t}</li>
              ))}
            </ul>
          ) : null}
          {repo.isEmpty ? (
            <p class="notice">
              <Icon name="alert" /> This repository is empty.
            </p>
          ) : (
            <p class="muted">
              Default branch <code>{repo.defaultBranch}</code> · updated <TimeAgo date={repo.updatedAt} />
            </p>
          )}
          {code ? (
            <>
              <LanguageBar bytes={code.languages} />
              <div class="code-bar">
                <RefSelector
                  owner={repo.ownerName}
                  repo={repo.name}
                  current={code.at}
                  path=""
                  choices={code.choices}
                />
              </div>
              <TreeList
                target={{ owner: repo.ownerName, repo: repo.name, ref: code.at }}
                items={code.view.items}
                truncated={code.view.truncated === true}
              />
              {code.readme ? <Readme readme={code.readme} /> : null}
            </>
          ) : null}
        </section>
        <aside class="column-side" aria-labelledby="clone-title">
          <h2 id="clone-title">Clone</h2>
          <div class="clone">
            <label for="clone-url" class="visually-hidden">
              Clone URL (HTTPS)
            </label>
            <input id="clone-url" type="text" readonly value={cloneUrl} class="clone-url" />
            <button type="button" class="button copy-button" data-copy="clone-url" hidden>
              <Icon name="copy" /> <span>Copy</span>
            </button>
          </div>
        </aside>
      </div>,
    );
  },
});
