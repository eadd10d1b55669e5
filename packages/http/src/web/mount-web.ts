import type { Mount } from "../env.js";
import { mountNodeInfoDiscovery } from "../routes/misc/nodeinfo.js";
import { mountArchiveDownloads } from "./archive-download.js";
import { mountOAuthEndpoints } from "./oauth-endpoints.js";

/**
 * The OAuth2 provider's machine endpoints, NodeInfo discovery and source archives at their web
 * path. The pages (sign-in, TOTP, consent) are the web interface's (`@kiln/web`).
 */
export function mountWeb(mount: Mount): void {
  mountOAuthEndpoints(mount);
  mountNodeInfoDiscovery(mount);
  mountArchiveDownloads(mount);
}
