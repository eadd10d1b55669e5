import { DatabaseUnavailableError } from "@kiln/domain";

/**
 * SQLSTATEs that mean the connection, not the statement, failed: the server ended the session
 * (57P01 admin_shutdown: `pg_terminate_backend`, a restart, a failover; 57P02 crash_shutdown),
 * cannot take it yet (57P03 cannot_connect_now: starting up or shutting down; 53300
 * too_many_connections) or the connection broke (class 08, connection exception).
 */
const STATE_REASONS: Readonly<Record<string, string>> = {
  "57P01": "the database server terminated the connection",
  "57P02": "the database server crashed",
  "57P03": "the database server is starting up or shutting down",
  "53300": "the database server has too many connections",
};

/** Node's socket errors on the way to the server. */
const SOCKET_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "the database server refused the connection",
  ECONNRESET: "the connection to the database server was reset",
  EPIPE: "the connection to the database server was closed",
  ETIMEDOUT: "the connection to the database server timed out",
  EHOSTUNREACH: "the database server is unreachable",
  ENETUNREACH: "the database server is unreachable",
  ENOTFOUND: "the database server's host name does not resolve",
  EAI_AGAIN: "the database server's host name does not resolve",
};

/** What `pg` says when the socket ended or its client may no longer be used. */
const LOST_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
];

/**
 * Why a database operation failed, when the reason is that the database could not be reached
 * (the connection was lost or refused); undefined for any other error (a constraint, bad SQL),
 * which must not be mistaken for an outage. Looks through `cause` chains and the errors of an
 * AggregateError (a host name with several addresses).
 */
export function connectionLossReason(err: unknown, depth = 0): string | undefined {
  if (typeof err !== "object" || err === null || depth > 4) return undefined;
  if (isUnavailableError(err))
    return connectionLossReason((err as Error).cause, depth + 1) ?? (err as Error).message;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    const reason = STATE_REASONS[code] ?? SOCKET_REASONS[code];
    if (reason) return reason;
    if (/^08[0-9A-Z]{3}$/.test(code)) return `the connection to the database failed (SQLSTATE ${code})`;
  }
  if (typeof message === "string" && LOST_MESSAGES.some((m) => m.test(message))) {
    return "the connection to the database was lost";
  }
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const reason = connectionLossReason(inner, depth + 1);
      if (reason) return reason;
    }
  }
  return connectionLossReason(cause, depth + 1);
}

/** Whether an error means the database could not be reached (see {@link connectionLossReason}). */
export function isConnectionLoss(err: unknown): boolean {
  return connectionLossReason(err) !== undefined;
}

/**
 * The error to throw for `err`: a {@link DatabaseUnavailableError} naming the cause when the
 * database could not be reached (the adapters answer 503 with Retry-After), `err` itself otherwise.
 */
export function unavailableOr(err: unknown): unknown {
  if (isUnavailableError(err)) return err;
  const reason = connectionLossReason(err);
  if (reason === undefined) return err;
  return new DatabaseUnavailableError(`The database is unavailable: ${reason}. Try again shortly.`, {
    cause: err,
  });
}

function isUnavailableError(err: unknown): boolean {
  // By name too, so that the meaning survives duplicated module instances.
  return (
    err instanceof DatabaseUnavailableError ||
    (err instanceof Error && err.name === "DatabaseUnavailableError")
  );
}
