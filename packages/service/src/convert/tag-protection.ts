import { type api, formatTime } from "@kiln/domain";
import type * as v from "valibot";
import type { TagProtectionView } from "../git/tag-protection-service.js";

/** A tag protection rule as Forgejo's `TagProtection` (convert.ToTagProtection). */
export function toApiTagProtection(view: TagProtectionView): v.InferOutput<typeof api.TagProtection> {
  return {
    id: view.rule.id,
    name_pattern: view.rule.namePattern,
    whitelist_usernames: [...view.users],
    whitelist_teams: [...view.teams],
    created_at: formatTime(view.rule.createdAt),
    updated_at: formatTime(view.rule.updatedAt),
  };
}
