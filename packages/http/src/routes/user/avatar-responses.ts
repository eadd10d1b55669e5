import { api } from "@kiln/domain";

/** What an avatar upload answers for a bad image: undecodable base64 (400), too large a file (413). */
export const avatarErrors = {
  400: { description: "APIError", schema: api.APIError },
  413: { description: "APIError", schema: api.APIError },
} as const;
