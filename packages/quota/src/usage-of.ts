import type { ParsedSubject } from "./parse-subject.js";
import type { SubjectSpelling } from "./subject.js";
import { subjectIndex } from "./subject-bits.js";
import type { QuotaUsage } from "./usage.js";
import { usageVector } from "./usage-vector.js";

/**
 * The usage of one subject in bytes: the sum of the leaf counters below it, each counted once
 * (`size:all` = repositories + LFS + assets). `size:wiki` and `none` are 0.
 * @throws {UnrecognizedSubjectError} for an unknown subject.
 * @throws {InvalidUsageError} for invalid counters.
 */
export function usageOf(usage: QuotaUsage, subject: SubjectSpelling | ParsedSubject): number {
  const index = subjectIndex(typeof subject === "string" ? subject : subject.subject);
  return usageVector(usage)[index]!;
}
