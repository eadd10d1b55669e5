import { api } from "@kiln/domain";
import { repoLinks, toReference } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/git_ref.go: refs by prefix. */

const listResponses = {
  200: { description: "ReferenceList", schema: v.array(api.Reference) },
  ...notFound,
};

export const repoListAllGitRefs = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/refs",
  operationId: "repoListAllGitRefs",
  tags: ["repository"],
  summary: "Get specified ref or filtered repository's refs",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: listResponses,
  async handler(c, { repo: access }) {
    const links = repoLinks(access.repo, c.get("settings"));
    const refs = await c.get("services").gitObjects.refs(access.repo);
    return c.json(refs.map((ref) => toReference(ref, links)));
  },
});

export const repoListGitRefs = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/refs/{ref*}",
  operationId: "repoListGitRefs",
  tags: ["repository"],
  summary: "Get specified ref or filtered repository's refs",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, ref: qs.string("part or full name of the ref") }),
  responses: {
    ...listResponses,
    200: {
      ...listResponses[200],
      // Like Forgejo, one ref that is exactly the one asked for comes as an object.
      validate: v.union([v.array(api.Reference), api.Reference]),
    },
  },
  async handler(c, { params, repo: access }) {
    const links = repoLinks(access.repo, c.get("settings"));
    const refs = (await c.get("services").gitObjects.refs(access.repo, params.ref)).map((ref) =>
      toReference(ref, links),
    );
    const [only] = refs;
    if (refs.length === 1 && only?.ref === `refs/${params.ref}`) return c.json(only);
    return c.json(refs);
  },
});

export const gitRefRoutes = [repoListAllGitRefs, repoListGitRefs];
