import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/file.go, GetEditorconfig (the file routes are file.ts and file-write.ts). */

/** The editorconfig properties of a file: Forgejo's keys, then the other standard ones (Kiln additions). */
const EditorconfigDefinition = v.object({
  charset: v.optional(v.string()),
  indent_style: v.optional(v.string()),
  indent_size: v.optional(v.string()),
  end_of_line: v.optional(v.string()),
  tab_width: v.optional(v.number()),
  trim_trailing_whitespace: v.optional(v.boolean()),
  insert_final_newline: v.optional(v.boolean()),
});

export const repoGetEditorConfig = route({
  method: "get",
  path: "/repos/{owner}/{repo}/editorconfig/{filepath*}",
  operationId: "repoGetEditorConfig",
  tags: ["repository"],
  summary: "Get the EditorConfig definitions of a file in a repository",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, filepath: qs.string("filepath of file to get") }),
  query: v.object({
    ref: v.optional(
      qs.string(
        "The name of the commit/branch/tag. Default the repository’s default branch (usually master)",
      ),
    ),
  }),
  responses: {
    200: { description: "success", schema: EditorconfigDefinition },
    ...notFound,
  },
  async handler(c, { params, query, repo: access }) {
    return c.json(await c.get("services").editorconfig.definition(access.repo, params.filepath, query.ref));
  },
});

export const editorconfigRoutes = [repoGetEditorConfig];
