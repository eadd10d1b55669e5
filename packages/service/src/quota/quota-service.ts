import {
  type Paged,
  type PageRequest,
  PayloadTooLargeError,
  type QuotaGroupRecord,
  type QuotaUsedArtifact,
  type QuotaUsedAttachment,
  type QuotaUsedPackage,
} from "@kiln/domain";
import {
  isWithinQuota,
  parseSubject,
  type QuotaUsage,
  type ResolvedGroups,
  resolveGroups,
  type SubjectSpelling,
  USAGE_COUNTERS,
} from "@kiln/quota";
import { quotaGroups, quotaUsage } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { engineGroup, parseSubjectArgument } from "./subjects.js";
import { emptyListers, type UsedItemKind, type UsedItemListers, type UsedItemScope } from "./used-items.js";

/** The account a write counts against (Forgejo's quota target): a user or an organization. */
export interface QuotaOwner {
  readonly id: number;
  readonly name: string;
}

/** A caller that may see every object of the owner (not a `public-only` token). */
const EVERYTHING: UsedItemScope = { publicOnly: false };

/** What `GET /user/quota` shows: the owner's usage and the groups that apply (never the built-in one). */
export interface QuotaInfoData {
  readonly usage: QuotaUsage;
  readonly groups: readonly QuotaGroupRecord[];
}

/**
 * Quota of users and organizations: their usage (one row of the ledger, never a scan of what it
 * counts), the groups that apply (decision 4, docs/decisions.md), checks through the engine, the lists of
 * stored objects counting against them, and the one enforcement point (decision 6, docs/decisions.md).
 */
export class QuotaService {
  private readonly listers: UsedItemListers = emptyListers();

  constructor(private readonly ctx: ServiceContext) {}

  /** An owner's usage: the ledger's counters (zeros when nothing was ever counted). */
  async usage(ownerId: number): Promise<QuotaUsage> {
    const counters = await quotaUsage.getUsage(this.ctx.db, ownerId);
    const negative = USAGE_COUNTERS.filter((c) => counters[c] < 0);
    if (negative.length === 0) return counters;
    // Only drift can make a counter negative; count it as nothing and say how to repair it.
    this.ctx.logger.warn(
      { ownerId, counters: negative },
      "negative quota usage counter: run `kiln doctor quota --fix`",
    );
    return Object.fromEntries(
      USAGE_COUNTERS.map((c) => [c, Math.max(0, counters[c])]),
    ) as unknown as QuotaUsage;
  }

  /**
   * The groups that apply to an owner: its assigned groups; only when it has none, the existing
   * groups named in `[quota] DEFAULT_GROUPS`; else the built-in `size:all < [quota.default] TOTAL`.
   */
  async groupsFor(ownerId: number): Promise<ResolvedGroups> {
    const { defaultGroups, defaultTotal } = this.ctx.settings.quota;
    const assigned = await quotaGroups.loadGroups(this.ctx.db, { ownerId });
    const defaults =
      assigned.length === 0 && defaultGroups.length > 0
        ? await quotaGroups.loadGroups(this.ctx.db, { names: defaultGroups })
        : [];
    return resolveGroups({
      assigned: assigned.map(engineGroup),
      defaultGroupNames: defaultGroups,
      knownGroups: defaults.map(engineGroup),
      defaultTotal,
    });
  }

  /** Usage and applying groups of an owner, as `GET /user/quota` and friends show them. */
  async info(ownerId: number): Promise<QuotaInfoData> {
    const [usage, resolved] = await Promise.all([this.usage(ownerId), this.groupsFor(ownerId)]);
    return { usage, groups: resolved.source === "builtin" ? [] : resolved.groups };
  }

  /**
   * Whether the owner is within quota for a subject (`GET /user/quota/check`); 422 with Forgejo's
   * message for a missing or unknown subject. Surrounding blanks are ignored, as Forgejo's FormTrim.
   */
  async check(ownerId: number, subject: string): Promise<boolean> {
    const parsed = parseSubjectArgument(subject.trim());
    const [usage, resolved] = await Promise.all([this.usage(ownerId), this.groupsFor(ownerId)]);
    return isWithinQuota(resolved.groups, usage, parsed);
  }

  /**
   * The single enforcement point: every write that stores bytes for `owner` calls it first, with
   * the subject Forgejo enforces there (`http` routes declare it with their `quota` option; the
   * push policy and LFS ask {@link exceeds}). Off by default (decision 6, docs/decisions.md: nothing is
   * rejected); with `[quota] ENFORCE` (and quota enabled) an owner over quota for `subject` is
   * refused with Forgejo's 413 `{"message":"quota exceeded","user_id":…,"username":…}`. It reads
   * the owner's ledger row and groups only, so it costs the same whatever the owner stores.
   */
  async enforce(owner: QuotaOwner, subject: SubjectSpelling): Promise<void> {
    if (await this.exceeds(owner, subject)) {
      throw new PayloadTooLargeError("quota exceeded", { user_id: owner.id, username: owner.name });
    }
  }

  /**
   * Whether enforcement refuses a write of `owner` under `subject` now: false unless quota is
   * enabled and `[quota] ENFORCE` is set, then whether the owner is over quota (Forgejo's
   * `!EvaluateForUser`). For callers that answer in their own protocol (git hooks, LFS).
   */
  async exceeds(owner: QuotaOwner, subject: SubjectSpelling): Promise<boolean> {
    // A call site naming an unknown subject is a bug: fail loudly, whatever the mode.
    const parsed = parseSubject(subject);
    const { enabled, enforce } = this.ctx.settings.quota;
    if (!enabled || !enforce) return false;
    const [usage, resolved] = await Promise.all([this.usage(owner.id), this.groupsFor(owner.id)]);
    return !isWithinQuota(resolved.groups, usage, parsed);
  }

  /** Attachments counting against an owner, largest first, as `scope` may see them. */
  listUsedAttachments(
    ownerId: number,
    page: PageRequest,
    scope: UsedItemScope = EVERYTHING,
  ): Promise<Paged<QuotaUsedAttachment>> {
    return this.listers.attachments(ownerId, page, scope);
  }

  /** Package versions counting against an owner, largest first, as `scope` may see them. */
  listUsedPackages(
    ownerId: number,
    page: PageRequest,
    scope: UsedItemScope = EVERYTHING,
  ): Promise<Paged<QuotaUsedPackage>> {
    return this.listers.packages(ownerId, page, scope);
  }

  /** Actions artifacts counting against an owner, largest first, as `scope` may see them. */
  listUsedArtifacts(
    ownerId: number,
    page: PageRequest,
    scope: UsedItemScope = EVERYTHING,
  ): Promise<Paged<QuotaUsedArtifact>> {
    return this.listers.artifacts(ownerId, page, scope);
  }

  /** How the feature that stores attachments, packages or artifacts plugs its list in. */
  registerUsedItems<K extends UsedItemKind>(kind: K, lister: UsedItemListers[K]): void {
    this.listers[kind] = lister;
  }
}
