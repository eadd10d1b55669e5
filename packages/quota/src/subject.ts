/**
 * The canonical quota subjects: every value of the specification exactly as written, plus
 * Forgejo's `none`. Only size-based subjects exist; all sizes are in bytes.
 */
export const SUBJECTS = [
  "size:all",
  "size:repos:all",
  "size:repos:public",
  "size:repos:private",
  "sizeall",
  "sizelfs",
  "size:assets:all",
  "size:assets:attachments:all",
  "size:assets:attachments:issues",
  "size:assets:attachments:releases",
  "size:assets:artifacts",
  "size:assets:packages:all",
  "size:wiki",
  "none",
] as const;

/** A canonical quota subject (the specification's spelling). */
export type Subject = (typeof SUBJECTS)[number];

/**
 * Forgejo's spellings of three subjects, accepted as aliases of the specification's values so
 * that Forgejo clients work unchanged (decision 2, docs/decisions.md).
 */
export const SUBJECT_ALIASES = {
  "size:git:all": "sizeall",
  "size:git:lfs": "sizelfs",
  "size:assets:wiki": "size:wiki",
} as const satisfies Readonly<Record<string, Subject>>;

/** One of Forgejo's alias spellings. */
export type SubjectAlias = keyof typeof SUBJECT_ALIASES;

/** Any accepted spelling of a subject: a canonical value or an alias. Rules store these as written. */
export type SubjectSpelling = Subject | SubjectAlias;
