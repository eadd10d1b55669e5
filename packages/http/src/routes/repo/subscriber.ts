import { markersRoute } from "../shared/mark-routes.js";

/** Forgejo's routers/api/v1/repo/subscriber.go: who watches a repository (accounts the caller may see). */
export const repoSubscriberRoutes = [
  markersRoute(
    {
      path: "/repos/{owner}/{repo}/subscribers",
      operationId: "repoListSubscribers",
      summary: "List a repo's watchers",
    },
    (services, repo, page) => services.watches.watchers(repo, page),
  ),
];
