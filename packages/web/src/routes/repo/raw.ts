import { fileTypeOf, type RawFile, type RefKind } from "@kiln/service";
import type { WebContext } from "../../env.js";
import { page } from "../../page-route.js";
import { codeAccess } from "./src.js";

/** SVG opened on its own runs nothing and loads nothing (Forgejo's header for it). */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * A file's headers: its type judged from its first bytes as Forgejo's typesniffer does. Text
 * (HTML included) is `text/plain`, so no file of a repository is ever a page of this site; images
 * keep their type so `<img>` can draw them; SVG gets a policy that runs nothing.
 */
function headersOf(file: RawFile, head: Uint8Array): Headers {
  const type = fileTypeOf(head, file.name);
  const headers = new Headers({
    "content-type": type.mime,
    "content-length": String(file.size),
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    etag: `"${file.sha}"`,
  });
  if (type.kind === "svg") headers.set("content-security-policy", SVG_POLICY);
  if (type.kind === "pdf")
    headers.set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
  return headers;
}

/** Answers a file's bytes: a small one whole, a large one streamed as the client reads it. */
async function serve(file: RawFile): Promise<Response> {
  const content = await file.content();
  if (content instanceof Uint8Array)
    return new Response(content as Uint8Array<ArrayBuffer>, { headers: headersOf(file, content) });
  const reader = content.getReader();
  const first = await reader.read();
  const head = first.value ?? new Uint8Array();
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
  return new Response(body, { headers: headersOf(file, head) });
}

/**
 * Forgejo's `/{owner}/{repo}/raw/{kind}/{ref}/{path}` (the file's bytes) and `/media/…` (the LFS
 * object behind a pointer, else the file): the ref found at the head of the path by the service.
 */
async function fileAnswer(c: WebContext, action: "raw" | "media"): Promise<Response> {
  const access = await codeAccess(c);
  const services = c.get("services");
  const at = await services.sources.resolve(
    access.repo,
    c.req.param("kind") as RefKind,
    c.req.param("rest") ?? "",
  );
  const ref = at.fullRef;
  const file =
    action === "raw"
      ? await services.contents.raw(access.repo, at.path, ref)
      : await services.contents.media(access.repo, at.path, ref);
  return serve(file);
}

/** Forgejo's `/raw/blob/{sha}` and `/media/blob/{sha}`: a blob named by its id. */
async function blobAnswer(c: WebContext, action: "raw" | "media"): Promise<Response> {
  const access = await codeAccess(c);
  const contents = c.get("services").contents;
  const sha = c.req.param("blob") ?? "";
  return serve(
    action === "raw" ? await contents.rawBlob(access.repo, sha) : await contents.mediaBlob(access.repo, sha),
  );
}

export const rawRoutes = [
  page({
    method: "get",
    path: "/:username/:reponame/raw/blob/:blob{[0-9a-f]{40}|[0-9a-f]{64}}",
    access: "public",
    handler: (c) => blobAnswer(c, "raw"),
  }),
  page({
    method: "get",
    path: "/:username/:reponame/media/blob/:blob{[0-9a-f]{40}|[0-9a-f]{64}}",
    access: "public",
    handler: (c) => blobAnswer(c, "media"),
  }),
  page({
    method: "get",
    path: "/:username/:reponame/raw/:kind{branch|tag|commit}/:rest{.+}",
    access: "public",
    handler: (c) => fileAnswer(c, "raw"),
  }),
  page({
    method: "get",
    path: "/:username/:reponame/media/:kind{branch|tag|commit}/:rest{.+}",
    access: "public",
    handler: (c) => fileAnswer(c, "media"),
  }),
];
