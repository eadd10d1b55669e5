import type { Subject } from "./subject.js";

/**
 * The leaf counters of quota usage and the leaf subject each one is. Every other subject's usage
 * is the sum of the leaves below it (`size:wiki` and `none` are always 0: wiki size is not tracked).
 */
export const USAGE_COUNTER_SUBJECTS = {
  reposPublic: "size:repos:public",
  reposPrivate: "size:repos:private",
  lfs: "sizelfs",
  issueAttachments: "size:assets:attachments:issues",
  releaseAttachments: "size:assets:attachments:releases",
  artifacts: "size:assets:artifacts",
  packages: "size:assets:packages:all",
} as const satisfies Readonly<Record<string, Subject>>;

/** The name of one leaf usage counter. */
export type UsageCounter = keyof typeof USAGE_COUNTER_SUBJECTS;

/** The names of the leaf usage counters, in the specification's order. */
export const USAGE_COUNTERS = Object.keys(USAGE_COUNTER_SUBJECTS) as readonly UsageCounter[];

/**
 * An owner's usage in bytes, one non-negative safe integer per leaf counter, as read from the
 * usage ledger (counted against the repository owner, from sizes stored in the database).
 */
export type QuotaUsage = { readonly [Counter in UsageCounter]: number };

/** Usage of an owner that stores nothing. */
export const ZERO_USAGE: QuotaUsage = Object.freeze({
  reposPublic: 0,
  reposPrivate: 0,
  lfs: 0,
  issueAttachments: 0,
  releaseAttachments: 0,
  artifacts: 0,
  packages: 0,
});
