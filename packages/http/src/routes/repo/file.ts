import { api } from "@kiln/domain";
import { type RawFile, repoLinks, toContentsResponse } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { type RepoContext, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/file.go, reading: raw files and the contents API (writes: file-write.ts). */

const refQuery = {
  ref: v.optional(
    qs.string("The name of the commit/branch/tag. Default the repository’s default branch (usually master)"),
  ),
};

/** Kiln's specification names the contents read's parameter `branch`; Forgejo's is `ref`. Both are taken. */
const contentsQuery = {
  ...refQuery,
  branch: v.optional(qs.string("The branch to read; used when `ref` is not given")),
};

/**
 * Text that is valid UTF-8 without NUL bytes is served as text, anything else as bytes, judged on
 * the first chunk of the file (a character cut at its end is not an error).
 */
function contentType(bytes: Uint8Array): string {
  if (bytes.includes(0)) return "application/octet-stream";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return "text/plain; charset=utf-8";
  } catch {
    return "application/octet-stream";
  }
}

/** What `/raw` and `/media` share: a file's bytes at a ref, for readers of the code. */
const fileRoute = {
  tags: ["repository"],
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, filepath: qs.string("filepath of the file to get") }),
  query: v.object(refQuery),
  responses: {
    200: { description: "Returns raw file content.", schema: "file" },
    ...notFound,
  },
} as const;

export const repoGetRawFile = route({
  method: "get",
  path: "/repos/{owner}/{repo}/raw/{filepath*}",
  operationId: "repoGetRawFile",
  summary: "Get a file from a repository",
  ...fileRoute,
  async handler(c, { params, query, repo: access }) {
    return serveFile(
      c,
      await c.get("services").contents.raw(access.repo, params.filepath, query.ref || undefined),
    );
  },
});

export const repoGetRawFileOrLFS = route({
  method: "get",
  path: "/repos/{owner}/{repo}/media/{filepath*}",
  operationId: "repoGetRawFileOrLFS",
  summary: "Get a file or it's LFS object from a repository",
  ...fileRoute,
  async handler(c, { params, query, repo: access }) {
    return serveFile(
      c,
      await c.get("services").contents.media(access.repo, params.filepath, query.ref || undefined),
    );
  },
});

/**
 * Answers a file's bytes: a small file whole, in one write with its headers; a large one as a
 * stream, read from git (or the LFS store) as the client reads it. The type is judged on the
 * first chunk.
 */
async function serveFile(c: AppContext, file: RawFile): Promise<Response> {
  const content = await file.content();
  if (content instanceof Uint8Array)
    return new Response(content, { status: 200, headers: fileHeaders(file, content) });
  const reader = content.getReader();
  const first = await reader.read();
  const head = first.value ?? new Uint8Array();
  // HEAD: Hono answers it with this GET's headers and drops the body, so stop reading now.
  if (c.req.method === "HEAD") await reader.cancel();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: 200, headers: fileHeaders(file, head) });
}

/** The headers of a raw file's answer; `head` is its first bytes, which decide its type. */
function fileHeaders(file: RawFile, head: Uint8Array): Record<string, string> {
  return {
    "Content-Type": contentType(head),
    "Content-Length": String(file.size),
    "Content-Disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    "X-Content-Type-Options": "nosniff",
    ETag: `"${file.sha}"`,
    "X-Gitea-Object-Type": file.type,
    "X-Forgejo-Object-Type": file.type,
    "Access-Control-Expose-Headers": "X-Gitea-Object-Type, X-Forgejo-Object-Type",
  };
}

async function contents(c: AppContext, access: RepoContext, path: string, ref: string | undefined) {
  const { defaultMaxBlobSize, maxDirectoryEntries } = c.get("settings").api;
  const view = await c
    .get("services")
    .contents.contents(access.repo, path, ref || undefined, defaultMaxBlobSize, maxDirectoryEntries);
  const links = repoLinks(access.repo, c.get("settings"));
  const json = view.items.map((item) =>
    toContentsResponse(item, view.ref, links, c.get("settings"), view.kind === "dir"),
  );
  return view.kind === "dir" ? c.json(json) : c.json(json[0]);
}

export const repoGetContentsList = route({
  method: "get",
  path: "/repos/{owner}/{repo}/contents",
  operationId: "repoGetContentsList",
  tags: ["repository"],
  summary: "Gets the metadata of all the entries of the root dir",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(contentsQuery),
  responses: {
    200: { description: "ContentsListResponse", schema: v.array(api.ContentsResponse) },
    ...notFound,
  },
  async handler(c, { query, repo: access }) {
    return contents(c, access, "", query.ref || query.branch);
  },
});

export const repoGetContents = route({
  method: "get",
  path: "/repos/{owner}/{repo}/contents/{filepath*}",
  operationId: "repoGetContents",
  tags: ["repository"],
  summary:
    "Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    filepath: qs.string("path of the dir, file, symlink or submodule in the repo"),
  }),
  query: v.object(contentsQuery),
  responses: {
    200: {
      description: "ContentsResponse",
      schema: api.ContentsResponse,
      // A directory answers with the listing of its entries, as in Forgejo.
      validate: v.union([api.ContentsResponse, v.array(api.ContentsResponse)]),
    },
    ...notFound,
  },
  async handler(c, { params, query, repo: access }) {
    return contents(c, access, params.filepath, query.ref || query.branch);
  },
});

export const fileReadRoutes = [repoGetRawFile, repoGetRawFileOrLFS, repoGetContentsList, repoGetContents];
