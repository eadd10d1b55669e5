import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/flags.go: names a site administrator puts on a repository. As in
 * Forgejo, the routes exist only with `[repository] ENABLE_FLAGS` (404 otherwise), for site
 * administrators with an `admin`-scoped token.
 */

const enabled = (s: { repository: { enableFlags: boolean } }) => s.repository.enableFlags;
const flagParams = v.object({
  ...repoParams,
  flag: v.pipe(qs.string("name of the flag"), v.maxLength(api.MAX_FLAG_LENGTH)),
});

export const repoListFlags = route({
  method: "get",
  path: "/repos/{owner}/{repo}/flags",
  operationId: "repoListFlags",
  tags: ["repository"],
  summary: "List a repository's flags",
  access: "site-admin",
  repo: "read",
  scopes: ["admin"],
  enabled,
  params: v.object(repoParams),
  responses: { 200: { description: "StringSlice", schema: v.array(v.string()) }, ...forbidden, ...notFound },
  async handler(c, { repo }) {
    const flags = await c.get("services").repoFlags.list(repo.repo);
    c.header("X-Total-Count", String(flags.length));
    return c.json(flags);
  },
});

export const repoReplaceAllFlags = route({
  method: "put",
  path: "/repos/{owner}/{repo}/flags",
  operationId: "repoReplaceAllFlags",
  tags: ["repository"],
  summary: "Replace all flags of a repository",
  access: "site-admin",
  repo: "read",
  scopes: ["admin"],
  enabled,
  params: v.object(repoParams),
  body: api.ReplaceFlagsOption,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { body, repo }) {
    await c.get("services").repoFlags.replace(repo.repo, body.flags);
    return c.body(null, 204);
  },
});

export const repoDeleteAllFlags = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/flags",
  operationId: "repoDeleteAllFlags",
  tags: ["repository"],
  summary: "Remove all flags from a repository",
  access: "site-admin",
  repo: "read",
  scopes: ["admin"],
  enabled,
  params: v.object(repoParams),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { repo }) {
    await c.get("services").repoFlags.replace(repo.repo, []);
    return c.body(null, 204);
  },
});

export const repoCheckFlag = route({
  method: "get",
  path: "/repos/{owner}/{repo}/flags/{flag}",
  operationId: "repoCheckFlag",
  tags: ["repository"],
  summary: "Check if a repository has a given flag",
  access: "site-admin",
  repo: "read",
  scopes: ["admin"],
  enabled,
  params: flagParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo }) {
    await c.get("services").repoFlags.check(repo.repo, params.flag);
    return c.body(null, 204);
  },
});

export const repoAddFlag = route({
  method: "put",
  path: "/repos/{owner}/{repo}/flags/{flag}",
  operationId: "repoAddFlag",
  tags: ["repository"],
  summary: "Add a flag to a repository",
  access: "site-admin",
  repo: "read",
  scopes: ["admin"],
  enabled,
  params: flagParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo }) {
    await c.get("services").repoFlags.add(repo.repo, params.flag);
    return c.body(null, 204);
  },
});

export const repoDeleteFlag = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/flags/{flag}",
  operationId: "repoDeleteFlag",
  tags: ["repository"],
  summary: "Remove a flag from a repository",
  access: "site-admin",
  repo: "read",
  scopes: ["admin"],
  enabled,
  params: flagParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo }) {
    await c.get("services").repoFlags.remove(repo.repo, params.flag);
    return c.body(null, 204);
  },
});

export const repoFlagRoutes = [
  repoListFlags,
  repoReplaceAllFlags,
  repoDeleteAllFlags,
  repoCheckFlag,
  repoAddFlag,
  repoDeleteFlag,
];
