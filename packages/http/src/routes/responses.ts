import { api } from "@kiln/domain";

/**
 * The documented responses many routes share, named after Forgejo's swagger `responses`
 * (APINotFound, APIForbiddenError, …). Each is keyed by its status, so a route spreads the ones it
 * answers: `responses: { 200: { … }, ...notFound, ...validationError }`.
 */

/** 204 without a body (Forgejo's APIEmpty). */
export const empty = { 204: { description: "APIEmpty", schema: "empty" } } as const;

/** 403 (Forgejo's APIForbiddenError). */
export const forbidden = { 403: { description: "APIForbiddenError", schema: api.APIError } } as const;

/** 404 (Forgejo's APINotFound). */
export const notFound = { 404: { description: "APINotFound", schema: api.APINotFound } } as const;

/** 409 with Forgejo's generic APIError body. */
export const conflict = { 409: { description: "APIError", schema: api.APIError } } as const;

/** 413 when the owner's quota is exceeded (Forgejo's quotaExceeded). */
export const quotaExceeded = { 413: { description: "quotaExceeded", schema: api.APIError } } as const;

/** 422 (Forgejo's APIValidationError). */
export const validationError = { 422: { description: "APIValidationError", schema: api.APIError } } as const;

/** 423 when the repository is archived (Forgejo's repoArchivedError). */
export const repoArchived = { 423: { description: "repoArchivedError", schema: api.APIError } } as const;
