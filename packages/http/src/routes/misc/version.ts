import { api, KILN_VERSION } from "@kiln/domain";
import { route } from "../../route.js";

/** Forgejo's routers/api/v1/misc/version.go. */

export { KILN_VERSION };

/**
 * What `GET /version` reports: the Forgejo API level Kiln implements, with Kiln's version as
 * semver build metadata. Forgejo and Gitea SDKs gate features on this number, so it must be the
 * Forgejo version whose API Kiln speaks.
 */
export const API_VERSION = `12.0.0+kiln-${KILN_VERSION}`;

export const getVersion = route({
  method: "get",
  path: "/version",
  operationId: "getVersion",
  tags: ["miscellaneous"],
  summary: "Returns the version of the running application",
  access: "public",
  responses: { 200: { description: "ServerVersion", schema: api.ServerVersion } },
  handler(c) {
    return c.json({ version: API_VERSION });
  },
});

export const miscRoutes = [getVersion];
