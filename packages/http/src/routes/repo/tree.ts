import { api } from "@kiln/domain";
import { repoLinks, toGitTree } from "@kiln/service";
import * as v from "valibot";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/tree.go. */

const intQuery = (description: string) =>
  v.optional(v.pipe(v.string(), v.metadata({ swagger: { type: "integer" }, description })));

export const GetTree = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/trees/{sha}",
  operationId: "GetTree",
  tags: ["repository"],
  summary: "Gets the tree of a repository.",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, sha: qs.string("sha of the commit") }),
  query: v.object({
    recursive: v.optional(qs.bool("show all directories and files")),
    page: intQuery(
      "page number; the 'truncated' field in the response will be true if there are still more items after this page, false if the last page",
    ),
    per_page: intQuery("number of items per page"),
  }),
  responses: {
    200: { description: "GitTreeResponse", schema: api.GitTreeResponse },
    400: { description: "APIError", schema: api.APIError },
    ...notFound,
  },
  async handler(c, { params, query, repo: access }) {
    const perPageLimit = c.get("settings").api.defaultGitTreesPerPage;
    const page = pageRequest(
      { page: query.page, limit: query.per_page },
      { ...c.get("settings").api, defaultPagingNum: perPageLimit, maxResponseItems: perPageLimit },
    );
    const tree = await c.get("services").gitObjects.tree(access.repo, params.sha, {
      recursive: query.recursive ?? false,
      page: page.page,
      perPage: page.limit,
    });
    setPagingHeaders(c, page, tree.totalCount);
    return c.json(toGitTree(tree, repoLinks(access.repo, c.get("settings"))));
  },
});

export const treeRoutes = [GetTree];
