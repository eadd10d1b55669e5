import type { Settings } from "@kiln/domain";
import type { PageRoute } from "../page-route.js";
import { accountPage } from "./account.js";
import { oauthRoutes } from "./auth/oauth-consent.js";
import { securityRoutes } from "./auth/security-settings.js";
import { signInRoutes } from "./auth/sign-in.js";
import { signUpRoutes } from "./auth/sign-up.js";
import { exploreRoutes } from "./explore.js";
import { home } from "./home.js";
import { notificationsPage } from "./notifications.js";
import { orgRoutes } from "./org.js";
import { blameRoutes } from "./repo/blame.js";
import { historyRoutes } from "./repo/history-routes.js";
import { issueRoutes } from "./repo/issue-routes.js";
import { rawRoutes } from "./repo/raw.js";
import { releaseRoutes } from "./repo/release.js";
import { repoHome } from "./repo/repo-home.js";
import { srcRoutes } from "./repo/src.js";
import { wikiRoutes } from "./repo/wiki.js";

/**
 * Every page, in the order routing tries them: fixed paths first, then the catch-all shapes
 * `/{owner}/{repo}` and `/{username}` (whose names can never be a fixed path's first segment,
 * since those are reserved account names).
 */
export const PAGE_ROUTES: readonly PageRoute[] = [
  home,
  ...exploreRoutes,
  ...signInRoutes,
  ...signUpRoutes,
  ...securityRoutes,
  ...oauthRoutes,
  notificationsPage,
  ...orgRoutes,
  ...historyRoutes,
  ...issueRoutes,
  ...releaseRoutes,
  ...wikiRoutes,
  ...srcRoutes,
  ...rawRoutes,
  ...blameRoutes,
  repoHome,
  accountPage,
];

/** The pages registered under these settings. */
export function enabledPages(settings: Settings): PageRoute[] {
  return PAGE_ROUTES.filter((r) => r.enabled?.(settings) ?? true);
}
