/** Base class of every error this package throws, so callers can catch them as one kind. */
export class QuotaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * A subject that is neither a specification value, a Forgejo alias nor `none`. The message is
 * Forgejo's, so an API can answer 422 with it verbatim.
 */
export class UnrecognizedSubjectError extends QuotaError {
  /** The rejected value, as given. */
  readonly subject: string;

  constructor(subject: string) {
    super(`unrecognized quota limit subject: [subject: ${subject}]`);
    this.subject = subject;
  }
}

/**
 * A usage counter that is not a non-negative safe integer, or counters whose total exceeds
 * `Number.MAX_SAFE_INTEGER` bytes (sums would no longer be exact).
 */
export class InvalidUsageError extends QuotaError {
  /** The offending counter, or `"total"` when only the sum is out of range. */
  readonly counter: string;
  /** The offending value. */
  readonly value: unknown;

  constructor(counter: string, value: unknown) {
    super(
      counter === "total"
        ? `quota usage total ${String(value)} exceeds ${Number.MAX_SAFE_INTEGER} bytes`
        : `invalid quota usage counter ${counter}: ${String(value)} is not a non-negative safe integer`,
    );
    this.counter = counter;
    this.value = value;
  }
}

/** A rule limit that is not an integer (`-1` means unlimited; any other value is bytes). */
export class InvalidLimitError extends QuotaError {
  /** The rule whose limit is invalid. */
  readonly rule: string;
  /** The offending limit. */
  readonly limit: unknown;

  constructor(rule: string, limit: unknown) {
    super(`invalid limit of quota rule ${JSON.stringify(rule)}: ${String(limit)} is not an integer`);
    this.rule = rule;
    this.limit = limit;
  }
}
