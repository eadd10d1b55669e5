import { type api, formatTime } from "@kiln/domain";

/** Forgejo's BlockedUser: the blocked account's id and when the block was made. */
export function toApiBlockedUser(entry: {
  readonly blockId: number;
  readonly createdAt: Date;
}): api.BlockedUser {
  return { block_id: entry.blockId, created_at: formatTime(entry.createdAt) };
}
