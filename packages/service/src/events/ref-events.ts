import type { RefUpdate } from "@kiln/git";
import type { Db } from "@kiln/storage";
import type { EventBase } from "./event.js";
import type { EventRecorder } from "./recorder.js";

const ZERO = /^0+$/;

/**
 * Records the events of ref updates as Forgejo's pushUpdates notifies them: a branch's `create`
 * before its `push`, its deletion as `delete` alone; a tag's `push` (with 40 zeros after, when
 * deleted) before its `create` or `delete`. Other refs (`refs/pull/…`, notes) fire nothing.
 */
export async function recordRefUpdates(
  events: EventRecorder,
  trx: Db,
  base: EventBase,
  updates: readonly RefUpdate[],
): Promise<void> {
  for (const update of updates) {
    const isTag = update.ref.startsWith("refs/tags/");
    if (!isTag && !update.ref.startsWith("refs/heads/")) continue;
    const refType = isTag ? "tag" : "branch";
    const ref = update.ref.slice(isTag ? "refs/tags/".length : "refs/heads/".length);
    const created = ZERO.test(update.oldSha);
    const deleted = ZERO.test(update.newSha);
    if (created && deleted) continue;
    const push = {
      ...base,
      type: "push",
      ref: update.ref,
      before: update.oldSha,
      after: update.newSha,
    } as const;
    const change = deleted
      ? ({ ...base, type: "delete", refType, ref, sha: update.oldSha } as const)
      : created
        ? ({ ...base, type: "create", refType, ref, sha: update.newSha } as const)
        : undefined;
    if (isTag) {
      await events.record(trx, push);
      if (change) await events.record(trx, change);
    } else {
      if (change) await events.record(trx, change);
      if (!deleted) await events.record(trx, push);
    }
  }
}
