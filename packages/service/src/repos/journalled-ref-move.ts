import type { Repository } from "@kiln/domain";
import type { BeforeRefMove, RefUpdate } from "@kiln/git";
import type { RepoService } from "./repo-service.js";

/**
 * A ref move made through the API (a branch or tag created or deleted), journalled like pushes
 * and file writes (docs/architecture.md, "The git window"): `move` gets the hook that announces
 * the update before git makes it; the update is then recorded as the doer's push, claiming the
 * announcement, so a crash in between is finished at start-up with its events recorded once. A
 * move that failed is settled against git at once.
 */
export async function journalledRefMove<T>(
  repos: RepoService,
  repo: Repository,
  doerId: number,
  move: (beforeMove: BeforeRefMove) => Promise<T>,
  updateOf: (result: T) => RefUpdate,
): Promise<T> {
  let operation: string | undefined;
  let announced: RefUpdate | undefined;
  let result: T;
  try {
    result = await move(async (update) => {
      announced = update;
      operation = await repos.journal.announce(repo.id, "ref", doerId, [update]);
    });
  } catch (error) {
    if (operation) await repos.journal.settle(operation);
    throw error;
  }
  await repos.afterPush(
    repo,
    [announced ?? updateOf(result)],
    doerId,
    operation ? { operation, kind: "ref" } : undefined,
  );
  return result;
}
