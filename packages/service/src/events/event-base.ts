import type { EventBase } from "./event.js";

/** The common part of an event in a repository: its id and owner, who acted, and when. */
export function inRepo(
  repo: { readonly id: number; readonly ownerId: number },
  actorId: number,
  at: Date = new Date(),
): EventBase {
  return { repoId: repo.id, ownerId: repo.ownerId, actorId, at };
}
