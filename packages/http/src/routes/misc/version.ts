import { api } from "@kiln/domain";
import { route } from "../../route.js";

/** Forgejo's routers/api/v1/misc/version.go. */

/** The version string the server reports; set by the app at start-up. */
export const KILN_VERSION = "0.1.0";

export const getVersion = route({
  method: "get",
  path: "/version",
  operationId: "getVersion",
  tags: ["miscellaneous"],
  summary: "Returns the version of the running application",
  access: "public",
  responses: { 200: { description: "ServerVersion", schema: api.ServerVersion } },
  handler(c) {
    return c.json({ version: KILN_VERSION });
  },
});

export const miscRoutes = [getVersion];
