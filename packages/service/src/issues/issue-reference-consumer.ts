import { CommentType, type Issue, type User } from "@kiln/domain";
import { type CommitMessage, commitMessages } from "@kiln/git";
import { comments, type Db, issues, pulls, users } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import { actorFor } from "../access/actor.js";
import { referenceRights } from "../access/issue-rules.js";
import type { ServiceContext } from "../context.js";
import type { ForgeEvent } from "../events/event.js";
import type { EventConsumer } from "../events/recorder.js";
import type { RepoService } from "../repos/repo-service.js";
import {
  findIssueReferences,
  findMarkdownReferences,
  type IssueReference,
  type ReferenceKeywords,
} from "./issue-references.js";
import { changeIssueStatus } from "./issue-status.js";

const ZERO = /^0+$/;
/** The commits of a new branch that are read (Forgejo's CommitsBeforeLimit(10)). */
const NEW_BRANCH_COMMITS = 10;
/** The newest commits of one push that are read for references (Forgejo reads them all). */
const MAX_PUSH_COMMITS = 1000;
/** The references of one commit message, or of a pull request's title and description, that are followed. */
const MAX_REFERENCES = 100;
/**
 * The references of one push that are followed, over all its commits (oldest first): each costs
 * queries and may add a timeline entry inside the push's transaction, so 1000 commits naming 100
 * issues each cannot hold the database for a hundred thousand of them.
 */
export const MAX_PUSH_REFERENCES = 1000;

type PushEvent = Extract<ForgeEvent, { type: "push" }>;

/** An issue a reference names, with its repository as the doer sees it. */
interface Target {
  readonly issue: Issue;
  readonly access: RepoAccess;
}

/**
 * Closing keywords and commit references (Forgejo's UpdateIssuesCommit and the merge's
 * handleCloseCrossReferences), as an event consumer, so each closing commits with the push or the
 * merge that caused it and is an ordinary change (event, notifications, feed, webhooks):
 *
 * - a `push` to a branch: each new commit that names an issue (`#3`, `owner/repo#3`) adds a
 *   `commit_ref` entry to its timeline; one that says `Fixes #1` (or reopens) also closes (or
 *   reopens) it when the branch is the default branch (or the issue's own `ref`);
 * - a merged pull request: the issues its title or description says it fixes are closed.
 *
 * The doer (pusher or merger) must be able to close the issue as Forgejo asks: repository admin,
 * writer of its issues, or its poster; a reference to an issue the doer may not read does nothing.
 */
export function issueReferenceConsumer(
  ctx: ServiceContext,
  access: AccessService,
  repos: RepoService,
): EventConsumer {
  const keywords: ReferenceKeywords = {
    close: ctx.settings.repository.closeKeywords,
    reopen: ctx.settings.repository.reopenKeywords,
  };
  return {
    name: "issue-references",
    async consume(trx, event) {
      if (event.type === "push")
        await new References(ctx, access, trx, event.actorId).fromPush(event, repos, keywords);
      else if (event.type === "pull_request" && event.action === "closed")
        await new References(ctx, access, trx, event.actorId).fromMerge(event.issueId, keywords);
    },
  };
}

/** The references of one event, resolved for its doer inside the event's transaction. */
class References {
  readonly #repos = new Map<string, RepoAccess | undefined>();
  readonly #issues = new Map<string, Issue | undefined>();
  #doer: User | undefined | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
    private readonly trx: Db,
    private readonly doerId: number,
  ) {}

  async fromPush(event: PushEvent, repos: RepoService, keywords: ReferenceKeywords): Promise<void> {
    if (event.mirrorSync || event.repoId === null || !event.ref.startsWith("refs/heads/")) return;
    if (ZERO.test(event.after)) return;
    const pushed = await this.repo({ id: event.repoId });
    if (!pushed) return;
    const git = await repos.git(pushed.repo);
    const created = ZERO.test(event.before);
    const newest = await commitMessages(
      git,
      event.after,
      created ? { limit: NEW_BRANCH_COMMITS } : { since: event.before, limit: MAX_PUSH_COMMITS },
    );
    const branch = event.ref.slice("refs/heads/".length);
    let budget = MAX_PUSH_REFERENCES;
    for (const commit of newest.reverse()) {
      const seen = new Set<string>();
      for (const ref of findIssueReferences(commit.message, keywords).slice(0, MAX_REFERENCES)) {
        if (budget-- <= 0) return;
        const target = await this.target(pushed, ref);
        if (!target) continue;
        const key = `${target.issue.id}:${ref.action}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const rights = this.rights(target);
        if (!rights.comment) continue;
        await this.commitRef(pushed, target, commit, event.at);
        if (target.issue.isPull || !rights.close || ref.action === "none") continue;
        // Only the default branch (or the branch the issue names) closes, as in Forgejo.
        const issueBranch = target.issue.ref.replace(/^refs\/heads\//, "");
        if (issueBranch !== "" ? branch !== issueBranch : branch !== pushed.repo.defaultBranch) continue;
        await this.changeStatus(target, ref.action === "closes", event.at);
      }
    }
  }

  async fromMerge(issueId: number, keywords: ReferenceKeywords): Promise<void> {
    const [pull] = await pulls.findPullsByIssueIds(this.trx, [issueId]);
    const issue = await issues.findIssueById(this.trx, issueId);
    if (!pull?.hasMerged || !issue) return;
    const base = await this.repo({ id: pull.baseRepoId });
    if (!base) return;
    // One action per issue, the last that asks for one (Forgejo's updateCrossReferenceList).
    const wanted = new Map<number, { target: Target; closing: boolean }>();
    const refs = [
      ...findIssueReferences(issue.title, keywords),
      ...findMarkdownReferences(issue.content, keywords),
    ];
    for (const ref of refs.slice(0, MAX_REFERENCES)) {
      if (ref.action === "none") continue;
      const target = await this.target(base, ref);
      if (!target || target.issue.isPull) continue;
      wanted.set(target.issue.id, { target, closing: ref.action === "closes" });
    }
    for (const { target, closing } of wanted.values()) {
      if (this.rights(target).close) await this.changeStatus(target, closing, new Date());
    }
  }

  /** A `commit_ref` entry on the issue, once per commit. A private repository's commit adds none to another repository's issue. */
  private async commitRef(
    pushed: RepoAccess,
    target: Target,
    commit: CommitMessage,
    at: Date,
  ): Promise<void> {
    const sameRepo = target.access.repo.id === pushed.repo.id;
    if (!sameRepo && (pushed.repo.isPrivate || pushed.owner.visibility !== "public")) return;
    if (await comments.hasCommitRef(this.trx, target.issue.id, commit.sha)) return;
    const link = `${this.#subPath()}/${encodeURIComponent(pushed.repo.ownerName)}/${encodeURIComponent(pushed.repo.name)}`;
    const title = commit.message.split("\n", 1)[0] ?? "";
    await comments.insertComment(
      this.trx,
      {
        issueId: target.issue.id,
        type: CommentType.commitRef,
        posterId: this.doerId,
        commitSha: commit.sha,
        content: `<a href="${html(link)}/commit/${html(commit.sha)}">${html(title)}</a>`,
      },
      at,
    );
  }

  private async changeStatus(target: Target, closing: boolean, at: Date): Promise<void> {
    // Read again: an earlier reference of the same push may have changed it.
    const issue = await issues.findIssueById(this.trx, target.issue.id);
    if (!issue) return;
    await changeIssueStatus(this.trx, this.ctx.events, {
      issue,
      repo: target.access.repo,
      doerId: this.doerId,
      closing,
      at,
    });
  }

  /** Forgejo's canclose and cancomment for the doer on the issue. */
  private rights(target: Target): { close: boolean; comment: boolean } {
    return referenceRights(target.access.permission, target.issue, this.doerId);
  }

  private async target(from: RepoAccess, ref: IssueReference): Promise<Target | undefined> {
    const access =
      ref.owner === undefined || ref.name === undefined
        ? from
        : await this.repo({ ownerName: ref.owner, name: ref.name });
    if (!access) return undefined;
    // Looked up once per event; `changeStatus` reads the issue again before changing it.
    const key = `${access.repo.id}#${ref.index}`;
    if (!this.#issues.has(key))
      this.#issues.set(key, await issues.findIssueByIndex(this.trx, access.repo.id, ref.index));
    const issue = this.#issues.get(key);
    return issue ? { issue, access } : undefined;
  }

  /** A repository as the doer sees it (undefined when hidden or gone), looked up once per event. */
  private async repo(
    key: { readonly id: number } | { readonly ownerName: string; readonly name: string },
  ): Promise<RepoAccess | undefined> {
    const name = "id" in key ? `#${key.id}` : `${key.ownerName}/${key.name}`;
    if (this.#repos.has(name)) return this.#repos.get(name);
    if (this.#doer === null) this.#doer = await users.findUserById(this.trx, this.doerId);
    const found = this.#doer ? await this.access.repoIn(this.trx, actorFor(this.#doer), key) : undefined;
    this.#repos.set(name, found);
    return found;
  }

  /** The path of Kiln under its host (`ROOT_URL`'s), without a trailing slash, as Forgejo's links start. */
  #subPath(): string {
    return new URL(this.ctx.settings.server.rootUrl).pathname.replace(/\/$/, "");
  }
}

function html(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&#34;")
    .replaceAll("'", "&#39;");
}
