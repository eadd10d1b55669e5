import { api } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";
import { commitsJson } from "./commits.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/notes.go: a commit's git note (`refs/notes/commits`). */

const shaParams = v.object({ ...repoParams, sha: qs.string("a git ref or commit sha") });

export const repoGetNote = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/notes/{sha}",
  operationId: "repoGetNote",
  tags: ["repository"],
  summary: "Get a note corresponding to a single commit from a repository",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: shaParams,
  query: v.object({
    verification: v.optional(
      qs.bool("include verification for every commit (disable for speedup, default 'true')"),
    ),
    files: v.optional(
      qs.bool("include a list of affected files for every commit (disable for speedup, default 'true')"),
    ),
  }),
  responses: {
    200: { description: "Note", schema: api.Note },
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, query, repo: access }) {
    const note = await c.get("services").notes.get(access.repo, params.sha, {
      ...(query.files !== undefined ? { files: query.files } : {}),
      ...(query.verification !== undefined ? { verification: query.verification } : {}),
    });
    const [commit] = commitsJson(c, access, note.commit, query);
    return c.json({ message: note.message, commit });
  },
});

export const repoSetNote = route({
  method: "post",
  path: "/repos/{owner}/{repo}/git/notes/{sha}",
  operationId: "repoSetNote",
  tags: ["repository"],
  summary: "Set a note corresponding to a single commit from a repository",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  notArchived: true,
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  scopes: ["repository"],
  params: shaParams,
  body: api.NoteOptions,
  bodyRequired: false,
  responses: {
    200: { description: "Note", schema: api.Note },
    ...forbidden,
    ...notFound,
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const note = await c.get("services").notes.set(access.repo, user, params.sha, body.message ?? "");
    const [commit] = commitsJson(c, access, note.commit, {});
    return c.json({ message: note.message, commit });
  },
});

export const repoRemoveNote = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/git/notes/{sha}",
  operationId: "repoRemoveNote",
  tags: ["repository"],
  summary: "Removes a note corresponding to a single commit from a repository",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  notArchived: true,
  scopes: ["repository"],
  params: shaParams,
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").notes.remove(access.repo, user, params.sha);
    return c.body(null, 204);
  },
});

export const noteRoutes = [repoGetNote, repoSetNote, repoRemoveNote];
