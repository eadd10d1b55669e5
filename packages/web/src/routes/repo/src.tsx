import { NotFoundError } from "@kiln/domain";
import type { RefKind, RefPath, RepoAccess } from "@kiln/service";
import { raw } from "hono/html";
import { FileView } from "../../components/code/file-view.js";
import { PathCrumbs } from "../../components/code/path-crumbs.js";
import { type RefChoices, RefSelector } from "../../components/code/ref-selector.js";
import { TreeList } from "../../components/code/tree-list.js";
import { Icon } from "../../components/icon.js";
import type { WebContext } from "../../env.js";
import type { Fields } from "../../forms.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { isMarkdown, MAX_SHOWN_SIZE, readmeOf, refChoices, showFile } from "./code-files.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

/** A code page needs the code unit: without it the page does not exist (404, as Forgejo's reqRepoCodeReader). */
export const CODE_READ = { read: "repo.code", hiddenWithout: "repo.code" } as const;

/** The repository a code page is about, as the access module lets the visitor see it. */
export function codeAccess(c: WebContext): Promise<RepoAccess> {
  return pageRepo(c, CODE_READ);
}

/** The README block under a listing (also on the repository's home). */
export function Readme(props: { readme: { name: string; html: string } }) {
  return (
    <section class="readme" aria-labelledby="readme-title">
      <h2 id="readme-title" class="readme-title">
        <Icon name="book" /> {props.readme.name}
      </h2>
      <div class="markup">{raw(props.readme.html)}</div>
    </section>
  );
}

/** The toolbar over a tree or file: the ref selector and where the page is. */
export function CodeBar(props: { access: RepoAccess; at: RefPath; choices: RefChoices }) {
  const { ownerName: owner, name: repo } = props.access.repo;
  const ref = { kind: props.at.kind, name: props.at.name };
  return (
    <div class="code-bar">
      <RefSelector owner={owner} repo={repo} current={ref} path={props.at.path} choices={props.choices} />
      <PathCrumbs owner={owner} repo={repo} ref={ref} path={props.at.path} />
    </div>
  );
}

/**
 * Forgejo's `/{owner}/{repo}/src/{branch|tag|commit}/{ref}/{path}` (and the legacy
 * `/src/{ref}/{path}`, shown in place rather than redirected): a directory's entries with their
 * last commits and its README, or a file highlighted, rendered or linked. The ref is found at the
 * head of the path by the service (branch names may contain `/`).
 */
async function sourcePage(c: WebContext, fields: Fields, kind: RefKind | undefined): Promise<Response> {
  const access = await codeAccess(c);
  const services = c.get("services");
  const found = await services.sources.resolve(access.repo, kind, c.req.param("rest") ?? "");
  const view = await services.contents.contentsAt(
    access.repo,
    found,
    MAX_SHOWN_SIZE,
    c.get("settings").api.maxDirectoryEntries,
  );
  // A commit given by a short sha is linked by its full one.
  const at: RefPath = { ...found, name: view.ref.path };
  const { ownerName: owner, name: repo } = access.repo;
  const choices = await refChoices(c, access);
  const header = repoHeaderOf(access, "code");
  const where = at.path ? `${at.path} at ${at.name}` : at.name;
  if (view.kind === "dir") {
    const readme = await readmeOf(c, access, at, view.items);
    return render(
      c,
      { title: `${owner}/${repo}: ${where}`, repo: header },
      <>
        <CodeBar access={access} at={at} choices={choices} />
        <TreeList target={{ owner, repo, ref: at }} items={view.items} truncated={view.truncated === true} />
        {readme ? <Readme readme={readme} /> : null}
      </>,
    );
  }
  const item = view.items[0];
  if (!item) throw new NotFoundError();
  const source = fields("display") === "source";
  const shown = await showFile(c, access, at, item, source);
  return render(
    c,
    { title: `${owner}/${repo}: ${where}`, repo: header },
    <>
      <CodeBar access={access} at={at} choices={choices} />
      <FileView
        owner={owner}
        repo={repo}
        ref={at}
        path={at.path}
        name={item.entry.name}
        size={item.entry.size}
        shown={shown}
        {...(isMarkdown(item.entry.name) && item.entry.type === "file" ? { markdown: { source } } : {})}
      />
    </>,
  );
}

export const srcRoutes = [
  page({
    method: "get",
    path: "/:username/:reponame/src/:kind{branch|tag|commit}/:rest{.+}",
    access: "public",
    variants: ["display=source"],
    handler: (c, fields) => sourcePage(c, fields, c.req.param("kind") as RefKind),
  }),
  page({
    method: "get",
    path: "/:username/:reponame/src/:rest{.+}",
    access: "public",
    handler: (c, fields) => sourcePage(c, fields, undefined),
  }),
];
