import type { RepoAccess, RepoNeed } from "@kiln/service";
import type { WebContext } from "../../env.js";

/**
 * The repository a page under `/:username/:reponame/…` is about, as the access module judges it
 * for the visitor: 404 for one they may not see, and for one whose `need` (a unit the page shows,
 * or plain read) they lack.
 */
export function pageRepo(c: WebContext, need?: RepoNeed): Promise<RepoAccess> {
  return c
    .get("services")
    .access.repo(c.get("actor"), c.req.param("username") ?? "", c.req.param("reponame") ?? "", need);
}
