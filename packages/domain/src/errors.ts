/**
 * Typed domain errors. Services throw these; the HTTP adapter maps each kind to a status code
 * and Forgejo's error body in one place. The four main kinds mirror Forgejo's (not found,
 * already exists, permission denied, invalid argument); the rest are named specials.
 */
export type ErrorKind =
  | "not_found"
  | "already_exists"
  | "permission_denied"
  | "invalid_argument"
  | "bad_request"
  | "unauthorized"
  | "conflict"
  | "locked"
  | "payload_too_large"
  | "precondition_failed"
  | "method_not_allowed"
  | "unavailable";

/** Base class of every error a Kiln service throws on purpose. */
export abstract class KilnError extends Error {
  abstract readonly kind: ErrorKind;
}

/** The thing asked for does not exist, or the caller may not know that it does. */
export class NotFoundError extends KilnError {
  readonly kind = "not_found";
  constructor(message = "The target couldn't be found.") {
    super(message);
    this.name = "NotFoundError";
  }
}

/** Creating something whose unique name is taken (409). */
export class AlreadyExistsError extends KilnError {
  readonly kind = "already_exists";
  constructor(message: string) {
    super(message);
    this.name = "AlreadyExistsError";
  }
}

/** The caller is known but may not do this (403). */
export class PermissionDeniedError extends KilnError {
  readonly kind = "permission_denied";
  constructor(message = "Forbidden") {
    super(message);
    this.name = "PermissionDeniedError";
  }
}

/** Input that is well-formed but not acceptable (422). */
export class InvalidArgumentError extends KilnError {
  readonly kind = "invalid_argument";
  /** Fields Forgejo adds to this answer's body beside `message` (e.g. `invalidTopics`). */
  constructor(
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = "InvalidArgumentError";
  }
}

/** A request Forgejo answers with 400 (an unparseable body, a few documented cases). */
export class BadRequestError extends KilnError {
  readonly kind = "bad_request";
  constructor(message: string) {
    super(message);
    this.name = "BadRequestError";
  }
}

/** Missing or invalid credentials (401). */
export class UnauthorizedError extends KilnError {
  readonly kind = "unauthorized";
  constructor(message = "token is required") {
    super(message);
    this.name = "UnauthorizedError";
  }
}

/** The request conflicts with the current state of the resource (409). */
export class ConflictError extends KilnError {
  readonly kind = "conflict";
  constructor(message: string) {
    super(message);
    this.name = "ConflictError";
  }
}

/** The resource is locked against changes, e.g. an archived repository (423). */
export class LockedError extends KilnError {
  readonly kind = "locked";
  constructor(message: string) {
    super(message);
    this.name = "LockedError";
  }
}

/** A quota or size limit refuses the request (413). Extra fields go into the body. */
export class PayloadTooLargeError extends KilnError {
  readonly kind = "payload_too_large";
  constructor(
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = "PayloadTooLargeError";
  }
}

/** The server is at a capacity limit for now; the request may be tried again later (503). */
export class ServiceUnavailableError extends KilnError {
  readonly kind = "unavailable";
  constructor(message: string) {
    super(message);
    this.name = "ServiceUnavailableError";
  }
}

/**
 * The database cannot be reached for now: the connection was lost (a PostgreSQL restart, a
 * failover, a pooler closing it) or refused. Nothing of the operation was committed unless it
 * had committed before the loss; a retry a little later gets a fresh connection (503).
 */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  /** Seconds a client should wait before trying again (the `Retry-After` header). */
  readonly retryAfterSeconds = 2;
  constructor(
    message = "The database is unavailable. Try again shortly.",
    options?: { readonly cause?: unknown },
  ) {
    super(message);
    this.name = "DatabaseUnavailableError";
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** A precondition of the change does not hold, e.g. closing an issue with open dependencies (412). */
export class PreconditionFailedError extends KilnError {
  readonly kind = "precondition_failed";
  constructor(message: string) {
    super(message);
    this.name = "PreconditionFailedError";
  }
}

/** An operation that does not apply to this kind of target, e.g. teams of a user's repository (405). */
export class MethodNotAllowedError extends KilnError {
  readonly kind = "method_not_allowed";
  constructor(message: string) {
    super(message);
    this.name = "MethodNotAllowedError";
  }
}

/** True for errors thrown on purpose by Kiln code (as opposed to bugs and I/O failures). */
export function isKilnError(err: unknown): err is KilnError {
  // Duck-typed so that errors keep their meaning across duplicated module instances.
  return (
    err instanceof Error &&
    typeof (err as { kind?: unknown }).kind === "string" &&
    KINDS.has((err as KilnError).kind)
  );
}

const KINDS: ReadonlySet<string> = new Set<ErrorKind>([
  "method_not_allowed",
  "not_found",
  "already_exists",
  "permission_denied",
  "invalid_argument",
  "bad_request",
  "unauthorized",
  "conflict",
  "locked",
  "payload_too_large",
  "precondition_failed",
  "unavailable",
]);
