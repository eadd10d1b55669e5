import { markersRoute } from "../shared/mark-routes.js";

/** Forgejo's routers/api/v1/repo/star.go: who starred a repository (accounts the caller may see). */
export const repoStarRoutes = [
  markersRoute(
    {
      path: "/repos/{owner}/{repo}/stargazers",
      operationId: "repoListStargazers",
      summary: "List a repo's stargazers",
    },
    (services, repo, page) => services.stars.stargazers(repo, page),
  ),
];
