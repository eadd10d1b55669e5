// Internal: precomputed tables that let evaluation work on small integers instead of strings.
// Subject i (its index in SUBJECTS) is bit i of a mask; the tables are derived from subject-tree.
import { UnrecognizedSubjectError } from "./errors.js";
import { SUBJECT_ALIASES, SUBJECTS } from "./subject.js";
import { subjectsRelated } from "./subject-tree.js";

/** Index in `SUBJECTS` of every accepted spelling. */
const INDEX: ReadonlyMap<string, number> = new Map<string, number>([
  ...SUBJECTS.map((subject, index): [string, number] => [subject, index]),
  ...Object.entries(SUBJECT_ALIASES).map(([alias, subject]): [string, number] => [
    alias,
    SUBJECTS.indexOf(subject),
  ]),
]);

/** For each subject index, the mask of the subjects it shares a branch with (itself included). */
export const RELATED_MASK: readonly number[] = SUBJECTS.map((subject) =>
  SUBJECTS.reduce((mask, other, index) => (subjectsRelated(subject, other) ? mask | (1 << index) : mask), 0),
);

/** Index of `size:wiki`, the subject that is always within quota. */
export const WIKI_INDEX = SUBJECTS.indexOf("size:wiki");

/**
 * The index of a subject spelling.
 * @throws {UnrecognizedSubjectError} for anything else.
 */
export function subjectIndex(spelling: string): number {
  const index = INDEX.get(spelling);
  if (index === undefined) throw new UnrecognizedSubjectError(spelling);
  return index;
}

/**
 * The mask of a rule's subjects; a subject written twice (or under two spellings) counts once.
 * @throws {UnrecognizedSubjectError} when one of them is not a subject.
 */
export function subjectMask(subjects: readonly string[]): number {
  let mask = 0;
  for (const subject of subjects) mask |= 1 << subjectIndex(subject);
  return mask;
}
