import { randomUUID } from "node:crypto";
import type { Repository, User } from "@kiln/domain";
import { getCommit } from "@kiln/git";
import {
  type Db,
  hookSelection,
  type NewHookTask,
  repositories,
  users,
  type WebhookRow,
  webhooks,
} from "@kiln/storage";
import { type ForgeEvent, type HookEventType, isHookEvent } from "../events/event.js";
import type { EventConsumer } from "../events/recorder.js";
import type { RepoService } from "../repos/repo-service.js";
import { branchMatches } from "./branch-glob.js";
import { loadEventSubject, mirrorViewOf, pushCommits } from "./event-subject.js";
import { hookWants } from "./hook-events.js";
import type { PayloadBuilder } from "./payload-builder.js";
import { renderBody } from "./render.js";

/** The branch an event is about, for `branch_filter` (Forgejo's getPayloadBranch); none for the rest. */
export function eventBranch(event: ForgeEvent): string | undefined {
  if (event.type === "push") return event.ref.startsWith("refs/heads/") ? event.ref.slice(11) : undefined;
  if (event.type === "create" || event.type === "delete")
    return event.refType === "branch" ? event.ref : undefined;
  return undefined;
}

/**
 * The event consumer "webhooks": in the transaction of the change it finds the active hooks the
 * event concerns (the repository's, its owner's, system hooks, and default hooks older than the
 * repository), keeps those whose selection and branch filter match, and queues one delivery per
 * hook with the payload rendered for the hook's type. Network work happens later, in the worker.
 */
export class WebhookQueue implements EventConsumer {
  readonly name = "webhooks";

  constructor(
    private readonly repos: RepoService,
    private readonly payloads: PayloadBuilder,
    private readonly queued: () => void,
  ) {}

  async consume(trx: Db, event: ForgeEvent): Promise<void> {
    if (!isHookEvent(event)) return;
    const repo = event.repoId === null ? undefined : await repositories.findRepositoryById(trx, event.repoId);
    const hooks = await webhooks.activeHooksFor(trx, event.repoId, event.ownerId, repo?.createdAt ?? null);
    const branch = eventBranch(event);
    const matching = hooks.filter(
      (hook) =>
        hookWants(hookSelection(hook.events), event.type) &&
        (branch === undefined || branchMatches(hook.branchFilter, branch)),
    );
    if (matching.length === 0) return;
    const subject = await loadEventSubject(trx, this.repos, event);
    if (!subject) return;
    const payload = this.payloads.build(subject);
    await webhooks.insertHookTasks(
      trx,
      matching.map((hook) => task(hook, event.type, renderBody(hook, event.type, payload))),
    );
    this.queued();
  }

  /** Queues Forgejo's test delivery for one hook, active or not: a push payload of `ref`'s commit. */
  async queueTest(
    trx: Db,
    hook: WebhookRow,
    repo: Repository,
    actor: User,
    ref: string | undefined,
  ): Promise<void> {
    const git = await this.repos.git(repo);
    const sha = (await getCommit(git, ref || repo.defaultBranch, { files: false })).sha;
    const push = await pushCommits(trx, this.repos, repo, "0".repeat(40), sha);
    const owner = await users.findUserById(trx, repo.ownerId);
    const mirror = await mirrorViewOf(trx, repo);
    const payload = this.payloads.build({
      event: {
        type: "push",
        repoId: repo.id,
        ownerId: repo.ownerId,
        actorId: actor.id,
        at: new Date(),
        ref: `refs/heads/${ref || repo.defaultBranch}`,
        before: sha,
        after: sha,
      },
      sender: actor,
      repo,
      repoOwner: owner ?? null,
      ...(mirror ? { repoMirror: mirror } : {}),
      push: { ...push, commits: push.commits.slice(0, 1), total: 1 },
    });
    await webhooks.insertHookTasks(trx, [task(hook, "push", renderBody(hook, "push", payload))]);
    this.queued();
  }
}

function task(hook: WebhookRow, type: HookEventType, body: string): NewHookTask {
  return { hookId: hook.id, uuid: randomUUID(), eventType: type, payload: body };
}
