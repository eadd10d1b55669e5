import type { User } from "@kiln/domain";
import { toApiOrg, viewerOf } from "@kiln/service";
import type { AppContext } from "../../env.js";

/** An organization in API shape, with the repository count the caller is entitled to. */
export async function apiOrg(c: AppContext, org: User) {
  return toApiOrg(
    org,
    await c.get("services").orgs.reposCount(org, viewerOf(c.get("actor"))),
    c.get("settings"),
  );
}
