import { type QuotaGroup, type QuotaGroupList, UNLIMITED } from "./rule.js";

/** Name of the built-in group used when neither assigned nor default groups exist (Forgejo's). */
export const BUILTIN_GROUP_NAME = "builtin-default-group";
/** Name of the built-in group's single rule (Forgejo's). */
export const BUILTIN_RULE_NAME = "builtin-default-rule";

/**
 * The built-in group: one rule `size:all < total`, where `total` is `[quota.default] TOTAL`
 * (`-1`, the default, is unlimited).
 */
export function builtinGroup(total: number = UNLIMITED): QuotaGroup {
  return {
    name: BUILTIN_GROUP_NAME,
    rules: [{ name: BUILTIN_RULE_NAME, limit: total, subjects: ["size:all"] }],
  };
}

/** What {@link resolveGroups} needs; all plain data the caller loaded. */
export interface GroupResolutionInput {
  /** The groups explicitly assigned to the owner (user or organization). */
  readonly assigned: QuotaGroupList;
  /** `[quota] DEFAULT_GROUPS`, the names of the default groups, in configuration order. */
  readonly defaultGroupNames: readonly string[];
  /** Groups that exist, at least those named in `defaultGroupNames` (unknown names are skipped). */
  readonly knownGroups: QuotaGroupList;
  /** `[quota.default] TOTAL` in bytes; `-1` (the default) is unlimited. */
  readonly defaultTotal?: number;
}

/** Where the groups that apply come from; the built-in group is never shown by the API. */
export type GroupSource = "assigned" | "default-groups" | "builtin";

/** The groups that apply to an owner and where they come from. */
export interface ResolvedGroups {
  readonly source: GroupSource;
  readonly groups: QuotaGroupList;
}

/**
 * The groups that apply to an owner (decision 4, docs/decisions.md): its assigned groups; only when it has
 * none, the existing groups named in `DEFAULT_GROUPS`; when none of those exists either, the
 * built-in group `size:all < TOTAL`. The result is never empty.
 */
export function resolveGroups(input: GroupResolutionInput): ResolvedGroups {
  if (input.assigned.length > 0) return { source: "assigned", groups: input.assigned };
  const known = new Map(input.knownGroups.map((group) => [group.name, group]));
  const defaults = [...new Set(input.defaultGroupNames)].flatMap((name) => known.get(name) ?? []);
  if (defaults.length > 0) return { source: "default-groups", groups: defaults };
  return { source: "builtin", groups: [builtinGroup(input.defaultTotal)] };
}
