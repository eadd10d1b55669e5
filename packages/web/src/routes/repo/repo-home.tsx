import { Icon } from "../../components/icon.js";
import { TimeAgo } from "../../components/time-ago.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoHeaderOf } from "./repo-tabs.js";

/**
 * Forgejo's repository home `/{owner}/{repo}`, as far as part 1's foundation goes: the repository
 * header with its tabs and counts, the description and topics, and the clone URL with a copy
 * button. The tree, README and languages come with the code pages.
 */
export const repoHome = page({
  method: "get",
  path: "/:username/:reponame",
  access: "public",
  async handler(c) {
    const services = c.get("services");
    const access = await services.access.repo(
      c.get("actor"),
      c.req.param("username") ?? "",
      c.req.param("reponame") ?? "",
    );
    const { repo } = access;
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
