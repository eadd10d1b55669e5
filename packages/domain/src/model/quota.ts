/**
 * A quota rule as an administrator stored it: a name, a limit in bytes (`-1` = unlimited) and
 * its subjects in the spelling they were created with (decision 2, docs/decisions.md).
 */
export interface QuotaRuleRecord {
  readonly name: string;
  readonly limit: number;
  readonly subjects: readonly string[];
}

/** A quota group as stored: a name and its rules, in the order they were added. */
export interface QuotaGroupRecord {
  readonly name: string;
  readonly rules: readonly QuotaRuleRecord[];
}

/**
 * An attachment counting against an owner's quota, as the feature storing attachments reports
 * it. Paths are relative (API paths to `/api/v1`, web paths to ROOT_URL); the API adds the base.
 */
export interface QuotaUsedAttachment {
  readonly name: string;
  readonly size: number;
  /** e.g. `/repos/o/r/releases/3/assets/7` */
  readonly apiPath: string;
  /** The release, issue or comment holding it. */
  readonly containedIn: { readonly apiPath: string; readonly htmlPath: string };
}

/** A package version counting against an owner's quota (size: the sum of its files' blobs). */
export interface QuotaUsedPackage {
  readonly name: string;
  /** The type's display name, as Forgejo shows it (`Generic`, `npm`, `PyPI`, `Container`…). */
  readonly type: string;
  readonly version: string;
  readonly size: number;
  /** Web path of the package version, e.g. `o/-/packages/generic/p/1.0.0`. */
  readonly htmlPath: string;
}

/** An Actions artifact counting against an owner's quota (compressed size). */
export interface QuotaUsedArtifact {
  readonly name: string;
  readonly size: number;
  /** Web path of the run that produced it. */
  readonly htmlPath: string;
}
