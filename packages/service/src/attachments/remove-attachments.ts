import { attachments, type Db, repositories } from "@kiln/storage";
import { QuotaLedger } from "../quota/ledger.js";

const ledger = new QuotaLedger();

/**
 * Removes attachments with their usage, in the caller's transaction: every one of a release, an
 * issue (its comments' too) or a comment, or the given ids, all of repository `repoId`. It locks
 * the repository row first, as uploads do, so a deletion and an upload of the same repository
 * are counted one after the other; call it before deleting the rows they hang on. Their bytes
 * stay in the store until the sweep finds them unreferenced (the same bytes may be stored once
 * for several attachments).
 */
export async function removeAttachments(
  db: Db,
  repoId: number,
  which: { ids: readonly number[] } | { releaseId: number } | { issueId: number } | { commentId: number },
): Promise<number> {
  const repo = await repositories.lockRepository(db, repoId);
  const gone = await attachments.deleteAttachments(db, which);
  if (!repo || gone.length === 0) return gone.length;
  let issueBytes = 0;
  let releaseBytes = 0;
  for (const row of gone) {
    if (row.releaseId === null) issueBytes += row.size;
    else releaseBytes += row.size;
  }
  await ledger.record(db, repo.ownerId, { issueAttachments: -issueBytes, releaseAttachments: -releaseBytes });
  return gone.length;
}
