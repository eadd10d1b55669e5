import { UnrecognizedSubjectError } from "./errors.js";
import { SUBJECT_ALIASES, SUBJECTS, type Subject, type SubjectSpelling } from "./subject.js";

/**
 * A subject as written by a user: `subject` is the canonical value used for every comparison,
 * `spelling` the value as given, which a stored rule echoes back (decision 2, docs/decisions.md).
 */
export interface ParsedSubject {
  readonly subject: Subject;
  readonly spelling: SubjectSpelling;
}

const CANONICAL: ReadonlyMap<string, Subject> = new Map<string, Subject>([
  ...SUBJECTS.map((subject): [string, Subject] => [subject, subject]),
  ...Object.entries(SUBJECT_ALIASES),
]);

/** Whether `value` is an accepted spelling of a subject (exact, case-sensitive match). */
export function isSubjectSpelling(value: unknown): value is SubjectSpelling {
  return typeof value === "string" && CANONICAL.has(value);
}

/**
 * Parses a subject as written in a rule or a `?subject=` query.
 * @throws {UnrecognizedSubjectError} for anything but a specification value, an alias or `none`.
 */
export function parseSubject(value: string): ParsedSubject {
  const subject = CANONICAL.get(value);
  if (subject === undefined) throw new UnrecognizedSubjectError(value);
  return { subject, spelling: value as SubjectSpelling };
}

/**
 * The canonical subject of a spelling or parsed subject.
 * @throws {UnrecognizedSubjectError} when given a string that is not a subject.
 */
export function canonicalSubject(value: SubjectSpelling | ParsedSubject): Subject {
  return typeof value === "string" ? parseSubject(value).subject : value.subject;
}

/** Whether two spellings or parsed subjects denote the same subject (`size:git:lfs` = `sizelfs`). */
export function sameSubject(a: SubjectSpelling | ParsedSubject, b: SubjectSpelling | ParsedSubject): boolean {
  return canonicalSubject(a) === canonicalSubject(b);
}
