import type { Mount } from "../env.js";
import { mountNodeInfoDiscovery } from "../routes/misc/nodeinfo.js";
import { mountLoginPages } from "./login-pages.js";
import { mountOAuthEndpoints } from "./oauth-endpoints.js";
import { mountOAuthPages } from "./oauth-pages.js";
import { mountTwoFactorPages } from "./two-factor-pages.js";

/** The web pages (sign-in, TOTP, consent), the OAuth2 provider's endpoints and NodeInfo discovery. */
export function mountWeb(mount: Mount): void {
  mountLoginPages(mount);
  mountTwoFactorPages(mount);
  mountOAuthPages(mount);
  mountOAuthEndpoints(mount);
  mountNodeInfoDiscovery(mount);
}
