import type { QuotaGroup, QuotaGroupList, QuotaRule, QuotaUsage } from "../src/index.js";

export function naiveCanonical(spelling: string): string;
export function naiveUsage(usage: QuotaUsage, spelling: string): bigint;
export function naiveRuleApplies(rule: QuotaRule, subject: string): boolean;
export function naiveRuleStands(rule: QuotaRule, usage: QuotaUsage): boolean;
export function naiveGroupStands(group: QuotaGroup, usage: QuotaUsage, subject: string): boolean;
export function naiveWithinQuota(groups: QuotaGroupList, usage: QuotaUsage, subject: string): boolean;
