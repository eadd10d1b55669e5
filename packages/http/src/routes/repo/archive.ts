import { api } from "@kiln/domain";
import type { ArchiveDownload } from "@kiln/service";
import * as v from "valibot";
import { repoLinks } from "../../convert/git.js";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's `GetArchive` (routers/api/v1/repo/file.go), apart from file.ts to keep both small:
 * the archive is streamed from git as the client reads it instead of being stored first.
 */

/** Forgejo's content types per format; a bundle is `application/octet-stream`. */
const CONTENT_TYPES = {
  zip: "application/zip",
  "tar.gz": "application/gzip",
  bundle: "application/octet-stream",
} as const;

/**
 * Go's `url.PathEscape`: what `encodeURIComponent` escapes, except `$&+,:;=@`, plus `!'()*`.
 * Forgejo writes the download name's `filename*` with it.
 */
function pathEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
}

/**
 * Forgejo's `Content-Disposition` (ServeSetHeaders): `attachment; filename="<name>";
 * filename*=UTF-8''<escaped>`, the quoted name with `\` and `"` escaped and sent as its UTF-8 bytes.
 */
function disposition(name: string): string {
  const quoted = Buffer.from(name.replaceAll("\\", "\\\\").replaceAll('"', '\\"'), "utf8").toString("latin1");
  return `attachment; filename="${quoted}"; filename*=UTF-8''${pathEscape(name)}`;
}

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
  async handler(c, { params, repo: ctx }) {
    const archive = await c.get("services").archives.archive(ctx.repo, params.archive);
    const { commitSha: sha, format } = archive;
    const etag = `"${sha}-${format}"`;
    const cache = {
      ETag: etag,
      "Cache-Control": "private, max-age=300",
      // Nix's tarball fetcher locks to this (Forgejo sets it the same way).
      Link: `<${repoLinks(ctx.repo, c.get("settings")).api}/archive/${sha}.${format}?rev=${sha}>; rel="immutable"`,
    };
    if (matches(c.req.header("If-None-Match"), etag))
      return new Response(null, { status: 304, headers: cache });
    const headers = {
      ...cache,
      "Content-Type": CONTENT_TYPES[format],
      "Content-Disposition": disposition(archive.fileName),
      "Access-Control-Expose-Headers": "Content-Disposition",
      "X-Content-Type-Options": "nosniff",
    };
    // HEAD: Hono answers it with this GET's headers and drops the body, so git is not started.
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
    return new Response(await archiveBody(c, archive), { status: 200, headers });
  },
});

export const archiveRoutes = [repoGetArchive];
