import type { RefUpdate } from "@kiln/git";
import type { Db } from "@kiln/storage";
import type { EventBase } from "../events/event.js";
import type { EventRecorder } from "../events/recorder.js";
import type { PushedCommits } from "../events/ref-events.js";

const ZERO = /^0+$/;

/**
 * Records the events of a pull mirror's sync as Forgejo's SyncPullMirror notifies them, for the
 * repository's owner: a new branch or tag is a `push` (no commits) then a `create`, a removed one
 * a `delete` alone, a moved one a `push` with the commits it brought. Each is marked `mirrorSync`
 * (the feed shows them as mirror_sync_push/create/delete). Other refs fire nothing.
 */
export async function recordMirrorSync(
  events: EventRecorder,
  trx: Db,
  base: EventBase,
  updates: readonly RefUpdate[],
  pushed: ReadonlyMap<string, PushedCommits>,
): Promise<void> {
  for (const update of updates) {
    const isTag = update.ref.startsWith("refs/tags/");
    if (!isTag && !update.ref.startsWith("refs/heads/")) continue;
    const refType = isTag ? "tag" : "branch";
    const ref = update.ref.slice(isTag ? "refs/tags/".length : "refs/heads/".length);
    if (ZERO.test(update.newSha)) {
      await events.record(trx, {
        ...base,
        type: "delete",
        refType,
        ref,
        sha: update.oldSha,
        mirrorSync: true,
      });
      continue;
    }
    const brought = ZERO.test(update.oldSha) ? undefined : pushed.get(update.ref);
    await events.record(trx, {
      ...base,
      type: "push",
      ref: update.ref,
      before: update.oldSha,
      after: update.newSha,
      ...(brought ? { commits: brought.commits, totalCommits: brought.total } : {}),
      mirrorSync: true,
    });
    if (ZERO.test(update.oldSha)) {
      await events.record(trx, {
        ...base,
        type: "create",
        refType,
        ref,
        sha: update.newSha,
        mirrorSync: true,
      });
    }
  }
}
