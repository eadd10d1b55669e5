import { api, type Repository } from "@kiln/domain";
import { type ArchiveDownload, archiveHeaders, repoLinks } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's `GetArchive` (routers/api/v1/repo/file.go), apart from file.ts to keep both small:
 * the archive is streamed from git as the client reads it instead of being stored first.
 */

/** Whether `If-None-Match` names `etag` (weak comparison, `*` matches), as Go's ServeContent decides. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

/** The archive's bytes as the response body, git's first chunk read before the status is sent. */
async function archiveBody(c: AppContext, archive: ArchiveDownload): Promise<ReadableStream<Uint8Array>> {
  const reader = (await archive.open(c.req.raw.signal)).getReader();
  // A git that fails before writing anything is a 500, not a 200 with an empty body.
  const first = await reader.read();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.value && first.value.length > 0) controller.enqueue(first.value);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * The archive `name` (`<ref>.zip|tar.gz|bundle`) of a repository the caller may read the code of,
 * as the response Forgejo sends: streamed, named, cacheable by its commit (`ETag`, 304).
 */
export async function archiveResponse(c: AppContext, repo: Repository, name: string): Promise<Response> {
  const archive = await c.get("services").archives.archive(repo, name);
  const { commitSha: sha, format } = archive;
  const etag = `"${sha}-${format}"`;
  const cache = {
    ETag: etag,
    "Cache-Control": "private, max-age=300",
    // Nix's tarball fetcher locks to this (Forgejo sets it the same way).
    Link: `<${repoLinks(repo, c.get("settings")).api}/archive/${sha}.${format}?rev=${sha}>; rel="immutable"`,
  };
  if (matches(c.req.header("If-None-Match"), etag))
    return new Response(null, { status: 304, headers: cache });
  const headers = {
    ...cache,
    ...archiveHeaders(archive),
    "Access-Control-Expose-Headers": "Content-Disposition",
  };
  // HEAD: Hono answers it with this GET's headers and drops the body, so git is not started.
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(await archiveBody(c, archive), { status: 200, headers });
}

export const repoGetArchive = route({
  method: "get",
  path: "/repos/{owner}/{repo}/archive/{archive*}",
  operationId: "repoGetArchive",
  tags: ["repository"],
  summary: "Get an archive of a repository",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    archive: qs.string("the git reference for download with attached archive format (e.g. master.zip)"),
  }),
  responses: {
    200: { description: "success", schema: "file" },
    304: { description: "the archive matches `If-None-Match`", schema: "empty" },
    400: { description: "the archive format is not zip, tar.gz or bundle", schema: api.APIError },
    ...notFound,
  },
  handler: (c, { params, repo: access }) => archiveResponse(c, access.repo, params.archive),
});

export const archiveRoutes = [repoGetArchive];
