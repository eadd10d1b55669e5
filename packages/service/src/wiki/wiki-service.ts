import {
  BadRequestError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  type CommitInfo,
  changeFiles,
  directoryWindow,
  type FileChange,
  GitAlreadyExistsError,
  type GitRepository,
  getCommitInfos,
  getContents,
  lastCommitsOf,
  listCommits,
  wikiRepoName,
  ZERO_SHA,
} from "@kiln/git";
import { type Db, repositories, wikis } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { userSignature } from "../git/commit-identity.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { crashPoint } from "../repos/crash-point.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { ReceivePackOptions, RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import {
  FOOTER,
  gitPathToWebPath,
  queryUnescape,
  reservedSegment,
  SIDEBAR,
  titleToWebPath,
  webPathToGitPath,
  webPathToTitle,
} from "./wiki-path.js";

/** What a page write records in its `wiki` event (and journals, to record it after a crash). */
interface WikiChange {
  readonly action: "created" | "edited" | "deleted";
  readonly page: string;
  readonly comment: string;
}

/** A wiki with more files than this is not searched for a page listed under another name. */
const MAX_LISTED_SCAN = 1000;

/** Commits per page of a page's revisions (Forgejo's `[git] COMMITS_RANGE_SIZE`). */
export const WIKI_REVISIONS_PER_PAGE = 50;

/** A page of the wiki without its content (Forgejo's WikiPageMetaData). */
export interface WikiPageMeta {
  /** The web path (`Home-Page`): `sub_url`, and the name the API's `{pageName}` takes. */
  readonly webPath: string;
  readonly title: string;
  readonly lastCommit: CommitInfo;
}

/** A page with its content, its number of revisions and the wiki's sidebar and footer. */
export interface WikiPageView extends WikiPageMeta {
  /** The bytes, or null when the file is larger than `[api] DEFAULT_MAX_BLOB_SIZE`. */
  readonly content: Uint8Array | null;
  readonly commitCount: number;
  readonly sidebar: Uint8Array | null;
  readonly footer: Uint8Array | null;
}

/** A page's content as a write gives it. */
export interface WikiWrite {
  readonly content: Uint8Array;
  /** The commit message; Forgejo's default when empty. */
  readonly message?: string;
}

const wikiNotFound = () => new NotFoundError("wiki page does not exist");

/**
 * A repository's wiki (Forgejo's services/wiki): a bare repository `<name>.wiki.git` beside the
 * repository, created with the first page written or the first push by a writer. Pages are
 * `*.md` files at its root, named as Forgejo names them (wiki-path.ts). Every write commits as
 * the acting user, then records the wiki's size (the ledger's `size:wiki`, against the repository
 * owner) and its `wiki` webhook event in one transaction; the callers resolved the repository
 * and the caller's access through the access module.
 */
export class WikiService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly ledger: QuotaLedger,
    private readonly refs: RefUpdates,
  ) {
    // The wiki's usage moves with a transferred repository and goes with a deleted one.
    ledger.registerRepositoryAssets(async (db, repoId) => ({ wiki: await wikis.wikiSize(db, repoId) }));
    // A page write a crash interrupted after its branch moved is recorded as it would have been.
    repos.journal.register(
      "wiki",
      async (repo, _git, intents) => {
        const [intent] = intents;
        if (!intent) return;
        const change = JSON.parse(intent.detail) as WikiChange;
        await this.recordChange(repo, intent.doerId, change, intent.operation, intent.createdAt);
      },
      (repo) => this.open(repo),
    );
  }

  /** The wiki repository, or undefined when the repository has none yet. */
  async open(repo: Repository): Promise<GitRepository | undefined> {
    const name = wikiRepoName(repo.name);
    if (!(await this.repos.store.exists(repo.ownerName, name))) return undefined;
    return withGitErrors(() => this.repos.store.open(repo.ownerName, name));
  }

  /**
   * The wiki repository, created (empty, HEAD on the repository's default branch, with Kiln's
   * hooks) when missing, its size recorded. For writes: the first page, the first push.
   */
  async ensure(repo: Repository): Promise<GitRepository> {
    const existing = await this.open(repo);
    if (existing) return existing;
    try {
      await this.repos.store.create(repo.ownerName, wikiRepoName(repo.name), {
        defaultBranch: repo.defaultBranch,
      });
    } catch (err) {
      // A concurrent write or push created it first.
      if (!(err instanceof GitAlreadyExistsError)) throw err;
    }
    await this.recordSize(repo);
    const created = await this.open(repo);
    if (!created) throw new NotFoundError("wiki does not exist");
    return created;
  }

  /** A page by its web path (Forgejo's getWikiPage); 404 when the wiki or the page is missing. */
  async page(repo: Repository, webPath: string): Promise<WikiPageView> {
    const git = await this.open(repo);
    if (!git) throw wikiNotFound();
    const max = this.ctx.settings.api.defaultMaxBlobSize;
    const found = await this.readPage(git, webPathToGitPath(webPath), max);
    if (!found) throw wikiNotFound();
    const [history, sidebar, footer] = await Promise.all([
      withGitErrors(() => listCommits(git, { path: found.path, limit: 1 })),
      this.readPage(git, webPathToGitPath(SIDEBAR), max),
      this.readPage(git, webPathToGitPath(FOOTER), max),
    ]);
    const lastCommit = history.commits[0];
    if (!lastCommit) throw wikiNotFound();
    return {
      webPath,
      title: webPathToTitle(webPath),
      lastCommit,
      commitCount: history.total,
      content: found.content,
      sidebar: sidebar?.content ?? null,
      footer: footer?.content ?? null,
    };
  }

  /**
   * One page of the wiki's pages as Forgejo's ListWikiPages pages them: the window of the root's
   * entries (in git's order) the page asked for, keeping the `*.md` files among them, and the
   * number of entries as the total; only that window is read, whatever the wiki's size, with the
   * last commit of each page (one history walk). 404 when the wiki has no commit yet.
   */
  async pages(repo: Repository, page: PageRequest): Promise<Paged<WikiPageMeta>> {
    const git = await this.open(repo);
    if (!git) throw wikiNotFound();
    const start = (page.page - 1) * page.limit;
    const window = await withGitErrors(() => directoryWindow(git, { start, count: page.limit }));
    const slice = window.entries.flatMap((entry) => {
      if (entry.type !== "blob" || entry.mode !== "100644") return [];
      const webPath = gitPathToWebPath(entry.name);
      return webPath === undefined ? [] : [{ webPath, name: entry.name }];
    });
    const last = await withGitErrors(() =>
      lastCommitsOf(
        git,
        window.commitSha,
        "",
        slice.map((p) => p.name),
      ),
    );
    const commits = await withGitErrors(() => getCommitInfos(git, [...new Set(last.values())]));
    const bySha = new Map(commits.map((c) => [c.sha, c]));
    const items = slice.flatMap((p) => {
      const commit = bySha.get(last.get(p.name) ?? "");
      return commit ? [{ webPath: p.webPath, title: webPathToTitle(p.webPath), lastCommit: commit }] : [];
    });
    return { total: window.total, items };
  }

  /** One page (of 50) of a page's revisions, newest first, and their number; 404 for a missing page. */
  async revisions(
    repo: Repository,
    webPath: string,
    page: number,
  ): Promise<{ commits: readonly CommitInfo[]; total: number }> {
    const git = await this.open(repo);
    if (!git) throw wikiNotFound();
    const found = await this.readPage(git, webPathToGitPath(webPath || "Home"), 0);
    if (!found) throw wikiNotFound();
    const history = await withGitErrors(() =>
      listCommits(git, { path: found.path, page, limit: WIKI_REVISIONS_PER_PAGE }),
    );
    return { commits: history.commits, total: history.total };
  }

  /**
   * Adds a page titled `title` (Forgejo's AddWikiPage): 400 for an empty or reserved title or a
   * page that exists. Returns the new page's web path.
   */
  async create(repo: Repository, doer: User, title: string, write: WikiWrite): Promise<string> {
    if (title.trim() === "") throw new BadRequestError("emptyTitle");
    const webPath = checkedWebPath(titleToWebPath(title));
    const git = await this.ensure(repo);
    const gitPath = webPathToGitPath(webPath);
    if ((await this.existing(git, webPath)) !== undefined) {
      throw new BadRequestError(`wiki page already exists [title: ${gitPath}]`);
    }
    await this.commit(repo, git, doer, [{ operation: "create", path: gitPath, content: write.content }], {
      message: write.message || `Add ${goQuote(title)}`,
      event: { action: "created", page: webPath },
      alreadyExists: `wiki page already exists [title: ${gitPath}]`,
    });
    return webPath;
  }

  /**
   * Rewrites the page at `oldWebPath` (Forgejo's EditWikiPage), renaming it when `title` names
   * another page (an empty title keeps the name). As in Forgejo, a page that does not exist is
   * written anew. Returns the page's web path.
   */
  async edit(
    repo: Repository,
    doer: User,
    oldWebPath: string,
    title: string | undefined,
    write: WikiWrite,
  ): Promise<string> {
    const webPath = checkedWebPath(title?.trim() ? titleToWebPath(title) : oldWebPath);
    const git = await this.ensure(repo);
    const newPath = webPathToGitPath(webPath);
    const target = await this.existing(git, webPath);
    const source = webPath === oldWebPath ? target : await this.existing(git, oldWebPath);
    const changes: FileChange[] = [];
    if (source && target && source.path === target.path) {
      changes.push({ operation: "update", path: target.path, sha: target.sha, content: write.content });
    } else {
      if (source) changes.push({ operation: "delete", path: source.path, sha: source.sha });
      changes.push(
        target
          ? { operation: "update", path: target.path, sha: target.sha, content: write.content }
          : { operation: "create", path: newPath, content: write.content },
      );
    }
    await this.commit(repo, git, doer, changes, {
      message: write.message || `Update ${goQuote(webPath)}`,
      event: { action: "edited", page: webPath },
    });
    return webPath;
  }

  /** Deletes a page (Forgejo's DeleteWikiPage); 404 when the wiki or the page is missing. */
  async delete(repo: Repository, doer: User, webPath: string): Promise<void> {
    const git = await this.open(repo);
    if (!git) throw wikiNotFound();
    const found = await this.existing(git, webPath);
    if (!found) throw wikiNotFound();
    await this.commit(repo, git, doer, [{ operation: "delete", path: found.path, sha: found.sha }], {
      message: `Delete page ${goQuote(webPath)}`,
      event: { action: "deleted", page: webPath },
      comment: "",
    });
  }

  /**
   * The wiki's git store for a git request and its options: a push by `pusher` creates the wiki
   * when missing and records its size after. Undefined when a reader asks for a wiki that does
   * not exist.
   */
  async transport(
    repo: Repository,
    pusher: User | null,
  ): Promise<{ git: GitRepository; options: ReceivePackOptions } | undefined> {
    const git = pusher ? await this.ensure(repo) : await this.open(repo);
    if (!git) return undefined;
    return { git, options: await this.refs.wikiTransport(repo, pusher, () => this.recordSize(repo)) };
  }

  /**
   * Measures a repository's wiki again (the `update_wiki_size` cron task), when it has one on
   * disk or a recorded size: bytes written behind Kiln's back, or a crash between a write and its
   * transaction, are brought into the ledger. Resolves with whether there was anything to measure.
   */
  async refreshSize(repoId: number): Promise<boolean> {
    const repo = await repositories.findRepositoryById(this.ctx.db, repoId);
    if (!repo) return false;
    const onDisk = await this.repos.store.exists(repo.ownerName, wikiRepoName(repo.name));
    const recorded = await wikis.wikiRecorded(this.ctx.db, repo.id);
    if (!onDisk && !recorded) return false;
    await this.recordSize(repo);
    return true;
  }

  /**
   * The file of a page as a write finds it (Forgejo's prepareGitPath): `<web path>.md` as given,
   * else the escaped file name; undefined when neither exists.
   */
  private async existing(
    git: GitRepository,
    webPath: string,
  ): Promise<{ path: string; sha: string } | undefined> {
    for (const path of new Set([`${webPath}.md`, webPathToGitPath(webPath)])) {
      const found = await this.entry(git, path);
      if (found) return found;
    }
    const listed = await this.listedAs(git, webPath);
    return listed ? this.entry(git, listed) : undefined;
  }

  /**
   * The file the page list shows under `webPath`, for a file whose name is not the one Forgejo
   * would write (`Release Notes.md` pushed with git is listed as `Release-Notes`): Kiln finds it,
   * so that every page listed can be read, edited and deleted by its `sub_url`. Only a wiki of at
   * most {@link MAX_LISTED_SCAN} files is searched this way: a miss must not read a huge wiki whole.
   */
  private async listedAs(git: GitRepository, webPath: string): Promise<string | undefined> {
    try {
      const root = await directoryWindow(git, { start: 0, count: MAX_LISTED_SCAN });
      if (root.total > MAX_LISTED_SCAN) return undefined;
      return root.entries.find((e) => e.type === "blob" && gitPathToWebPath(e.name) === webPath)?.name;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /** The blob at `path` on the wiki's branch, or undefined (no such file, or no commit yet). */
  private async entry(git: GitRepository, path: string): Promise<{ path: string; sha: string } | undefined> {
    try {
      const result = await getContents(git, path, { maxContentSize: 0 });
      return result.kind === "entry" && result.entry.type === "file"
        ? { path, sha: result.entry.sha }
        : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * A page's file as a read finds it (Forgejo's findEntryForFile): the file named, else its
   * unescaped name; with its bytes up to `max` (null beyond).
   */
  private async readPage(
    git: GitRepository,
    gitPath: string,
    max: number,
  ): Promise<{ path: string; content: Uint8Array | null } | undefined> {
    let unescaped: string | undefined;
    try {
      unescaped = queryUnescape(gitPath);
    } catch {}
    const candidates = new Set([gitPath, ...(unescaped ? [unescaped] : [])]);
    for (const path of candidates) {
      try {
        const result = await getContents(git, path, { maxContentSize: max });
        if (result.kind !== "entry" || result.entry.type !== "file") continue;
        return { path, content: "content" in result.entry ? result.entry.content : null };
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    }
    const webPath = gitPathToWebPath(gitPath);
    const listed = webPath === undefined ? undefined : await this.listedAs(git, webPath);
    if (listed === undefined || candidates.has(listed)) return undefined;
    return this.readPage(git, listed, max);
  }

  /** Commits the changes as `doer`, then records the size and the event in one transaction. */
  private async commit(
    repo: Repository,
    git: GitRepository,
    doer: User,
    files: FileChange[],
    options: {
      readonly message: string;
      readonly event: { readonly action: "created" | "edited" | "deleted"; readonly page: string };
      readonly comment?: string;
      readonly alreadyExists?: string;
    },
  ): Promise<void> {
    const author = { ...userSignature(doer, this.ctx.settings), date: new Date() };
    const change: WikiChange = { ...options.event, comment: options.comment ?? options.message };
    // Journalled (kind `wiki`): a crash after the branch moved still records the page's event.
    await this.refs.moveStore(repo, doer.id, {
      kind: "wiki",
      facts: { detail: { ...change } },
      move: (beforeMove) =>
        withGitErrors(() => changeFiles(git, { files, message: options.message, author, beforeMove }), {
          already_exists: (m) => new BadRequestError(options.alreadyExists ?? m),
        }),
      updatesOf: (made) => [{ ref: `refs/heads/${made.branch}`, oldSha: ZERO_SHA, newSha: made.commit.sha }],
      record: (_made, _updates, operation) => {
        crashPoint("wiki-after-move");
        return this.recordChange(repo, doer.id, change, operation);
      },
    });
  }

  /**
   * Records a page's change (its event, the wiki's size) once its branch moved, claiming the
   * journalled `operation` in the same transaction; the event is left out when a reconciliation
   * recorded it already.
   */
  private async recordChange(
    repo: Repository,
    doerId: number | null,
    change: WikiChange,
    operation: string | undefined,
    at = new Date(),
  ): Promise<void> {
    await this.recordSize(repo, async (trx) => {
      if (operation && !(await this.repos.journal.claim(trx, operation))) return;
      if (doerId === null) return;
      await this.ctx.events.record(trx, { ...inRepo(repo, doerId, at), type: "wiki", ...change });
    });
  }

  /**
   * Measures the wiki on disk and records its size and the owner's usage change. Measurements of
   * one repository run one after the other in this process (so the last recorded size is the last
   * measured), and the directory walk happens before the transaction opens: a transaction held
   * during disk work would hold the embedded database's only connection.
   */
  private recordSize(repo: Repository, also?: (trx: Db) => Promise<void>): Promise<void> {
    const previous = this.#measuring.get(repo.id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const current = await repositories.findRepositoryById(this.ctx.db, repo.id);
      if (!current) throw new NotFoundError();
      const name = wikiRepoName(current.name);
      const size = (await this.repos.store.exists(current.ownerName, name))
        ? await this.repos.store.size(current.ownerName, name)
        : 0;
      await this.ctx.db.transaction().execute(async (trx) => {
        const locked = await repositories.lockRepository(trx, repo.id);
        if (!locked) throw new NotFoundError();
        const before = await wikis.setWikiSize(trx, repo.id, size);
        await this.ledger.record(trx, locked.ownerId, { wiki: size - before });
        await also?.(trx);
      });
    });
    // What the next measurement waits for: never a rejection (the caller of `run` gets that).
    const settled: Promise<void> = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (this.#measuring.get(repo.id) === settled) this.#measuring.delete(repo.id);
      });
    this.#measuring.set(repo.id, settled);
    return run;
  }

  /** The measurement in progress (or queued last) per repository id. */
  readonly #measuring = new Map<number, Promise<void>>();
}

/** A new page's web path, or 400 for a reserved name (Forgejo's ErrWikiReservedName). */
function checkedWebPath(webPath: string): string {
  const reserved = reservedSegment(webPath);
  if (reserved !== undefined) throw new BadRequestError(`wiki title is reserved: ${reserved}`);
  return webPath;
}

/** Go's `%q` for the default commit messages. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** A page that is not there: no such file, no commit yet, or a name no file can have (`../x.md`). */
function isMissing(err: unknown): boolean {
  const kind = (err as { kind?: string }).kind;
  return kind === "not_found" || kind === "empty_repository" || kind === "invalid_argument";
}
