import { canonicalSubject, type ParsedSubject } from "./parse-subject.js";
import { SUBJECTS, type Subject, type SubjectSpelling } from "./subject.js";

/**
 * Each subject's parent in the subject tree of decision 3, docs/decisions.md. `size:all` is the root; `none`
 * stands outside the tree (no parent, no children).
 */
const PARENT: Readonly<Partial<Record<Subject, Subject>>> = {
  sizeall: "size:all",
  "size:repos:all": "sizeall",
  "size:repos:public": "size:repos:all",
  "size:repos:private": "size:repos:all",
  sizelfs: "sizeall",
  "size:assets:all": "size:all",
  "size:assets:attachments:all": "size:assets:all",
  "size:assets:attachments:issues": "size:assets:attachments:all",
  "size:assets:attachments:releases": "size:assets:attachments:all",
  "size:assets:artifacts": "size:assets:all",
  "size:assets:packages:all": "size:assets:all",
  "size:wiki": "size:assets:all",
};

type SubjectInput = SubjectSpelling | ParsedSubject;

/** The parent of a subject in the tree, or `undefined` for `size:all` and `none`. */
export function parentOf(subject: SubjectInput): Subject | undefined {
  return PARENT[canonicalSubject(subject)];
}

/** The ancestors of a subject, nearest first (`size:repos:public` → repos:all, sizeall, size:all). */
export function ancestorsOf(subject: SubjectInput): readonly Subject[] {
  const ancestors: Subject[] = [];
  for (let parent = parentOf(subject); parent !== undefined; parent = PARENT[parent]) ancestors.push(parent);
  return ancestors;
}

/** The direct children of a subject, in the specification's order. */
export function childrenOf(subject: SubjectInput): readonly Subject[] {
  const canonical = canonicalSubject(subject);
  return SUBJECTS.filter((candidate) => PARENT[candidate] === canonical);
}

/** Every descendant of a subject, depth first, each child before its own descendants. */
export function descendantsOf(subject: SubjectInput): readonly Subject[] {
  return childrenOf(subject).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** Whether `ancestor` is a strict ancestor of `subject` in the tree. */
export function isAncestorOf(ancestor: SubjectInput, subject: SubjectInput): boolean {
  return ancestorsOf(subject).includes(canonicalSubject(ancestor));
}

/**
 * Whether two subjects share a branch of the tree: the same subject, or one an ancestor of the
 * other. A rule applies to a checked subject exactly when one of its subjects is related to it.
 */
export function subjectsRelated(a: SubjectInput, b: SubjectInput): boolean {
  return canonicalSubject(a) === canonicalSubject(b) || isAncestorOf(a, b) || isAncestorOf(b, a);
}
