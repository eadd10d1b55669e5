import { page } from "../page-route.js";
import { orgProfile } from "./org.js";
import { userProfile } from "./user-profile.js";

/**
 * Forgejo's `/{username}`: a user's page or an organization's, whichever the name is, if the
 * visitor may see it (the access module's `account`/`org`; 404 otherwise, as through the API).
 */
export const accountPage = page({
  method: "get",
  path: "/:username",
  access: "public",
  variants: ["tab=stars", "tab=followers", "tab=following", "q=a", "page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const actor = c.get("actor");
    const account = await services.access.account(actor, c.req.param("username") ?? "");
    if (account.type === "organization") {
      return orgProfile(c, await services.access.org(actor, account.name), fields);
    }
    return userProfile(c, account, fields);
  },
});
