import * as v from "valibot";
import { int64 } from "./primitives.js";

/** Storage size of the owner's public and private repositories, excluding LFS. */
export const QuotaUsedSizeRepos = v.object({
  public: int64(),
  private: int64(),
});

/** Storage size of the owner's Git LFS objects (note Forgejo's capital key). */
export const QuotaUsedSizeGit = v.object({
  LFS: int64(),
});

/** Storage size of issue (and comment) attachments and release attachments. */
export const QuotaUsedSizeAssetsAttachments = v.object({
  issues: int64(),
  releases: int64(),
});

/** Storage size of the owner's packages. */
export const QuotaUsedSizeAssetsPackages = v.object({
  all: int64(),
});

/** Storage size of the owner's assets. */
export const QuotaUsedSizeAssets = v.object({
  attachments: QuotaUsedSizeAssetsAttachments,
  artifacts: int64(),
  packages: QuotaUsedSizeAssetsPackages,
});

/** Size-based quota usage of an owner. */
export const QuotaUsedSize = v.object({
  repos: QuotaUsedSizeRepos,
  git: QuotaUsedSizeGit,
  assets: QuotaUsedSizeAssets,
});

/** Quota usage of an owner, as Forgejo's `QuotaUsed`. */
export const QuotaUsed = v.object({
  size: QuotaUsedSize,
});

/** A quota rule; `name` is shown to admins only, `subjects` omitted when empty. */
export const QuotaRuleInfo = v.object({
  name: v.optional(v.string()),
  limit: int64(),
  subjects: v.optional(v.array(v.string())),
});

/** A quota group; `name` is shown to admins only. */
export const QuotaGroup = v.object({
  name: v.optional(v.string()),
  rules: v.array(QuotaRuleInfo),
});

/** The groups applying to an owner (the built-in default group is never listed). */
export const QuotaGroupList = v.array(QuotaGroup);

/** Quota usage and groups of a user or organization, as Forgejo's `QuotaInfo`. */
export const QuotaInfo = v.object({
  used: QuotaUsed,
  groups: QuotaGroupList,
});

/** Forgejo's `binding:"Required"` on a string: absent or empty is `[Field]: Required`. */
const requiredName = () => v.pipe(v.string(), v.nonEmpty("Required"));

/** Body of `POST /admin/quota/rules`; a missing `limit` is `[Limit]: Required`. */
export const CreateQuotaRuleOptions = v.object({
  name: requiredName(),
  limit: v.optional(v.nullable(int64())),
  subjects: v.optional(v.nullable(v.array(v.string()))),
});

/** Body of `POST /admin/quota/groups`: existing rules are attached as they are, missing ones created. */
export const CreateQuotaGroupOptions = v.object({
  name: requiredName(),
  rules: v.optional(v.nullable(v.array(CreateQuotaRuleOptions))),
});

/** Body of `PATCH /admin/quota/rules/{quotarule}`: only the fields given change. */
export const EditQuotaRuleOptions = v.object({
  limit: v.optional(v.nullable(int64())),
  subjects: v.optional(v.nullable(v.array(v.string()))),
});

/** Body of `POST /admin/users/{username}/quota/groups`: the owner's new set of groups. */
export const SetUserQuotaGroupsOptions = v.object({
  groups: v.optional(v.nullable(v.array(v.string()))),
});

/** An attachment counting towards an owner's quota. */
export const QuotaUsedAttachment = v.object({
  name: v.string(),
  size: int64(),
  api_url: v.string(),
  contained_in: v.object({
    api_url: v.string(),
    html_url: v.string(),
  }),
});

/** A package version counting towards an owner's quota. */
export const QuotaUsedPackage = v.object({
  name: v.string(),
  type: v.string(),
  version: v.string(),
  size: int64(),
  html_url: v.string(),
});

/** An Actions artifact counting towards an owner's quota. */
export const QuotaUsedArtifact = v.object({
  name: v.string(),
  size: int64(),
  html_url: v.string(),
});

export const QuotaUsedAttachmentList = v.array(QuotaUsedAttachment);
export const QuotaUsedPackageList = v.array(QuotaUsedPackage);
export const QuotaUsedArtifactList = v.array(QuotaUsedArtifact);
