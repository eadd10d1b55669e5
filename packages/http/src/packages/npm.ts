import type { PackageOwnerAccess } from "@kiln/service";
import { readBoundedText } from "../bounded-body.js";
import type { AppContext } from "../env.js";
import { enforceQuota } from "../quota-enforcement.js";
import type { PackageRegistry, RegistryRequest } from "./package-registry.js";
import { fileResponse, requestChunks } from "./serve-file.js";

/** The most bytes of a dist-tag request's body (a JSON string holding a version). */
const TAG_BODY_LIMIT = 1024;

/**
 * Forgejo's npm registry (routers/api/packages/npm) at `/api/packages/{owner}/npm/`: the package
 * document (`GET /{name}`), publishing (`PUT /{name}`, the body streamed), tarballs
 * (`GET /{name}/-/{version}/{file}` and `/{name}/-/{file}`), unpublishing (`DELETE …/-rev/{rev}`)
 * dist-tags (`/-/package/{name}/dist-tags[/{tag}]`) and search (`/-/v1/search`). A name is `name`, `@scope/name` or
 * `@scope%2Fname`. Errors are `{"error": message}`.
 */
export const npmRegistry: PackageRegistry = {
  type: "npm",
  error: (status, message) => Response.json({ error: message }, { status }),
  async handle(request: RegistryRequest) {
    const { c, method, owner } = request;
    const { segments, rawSegments } = withoutRepeatedRegistryPath(request);
    if (segments[0] === "-") {
      if (segments[1] === "v1" && segments[2] === "search" && segments.length === 3) {
        return method === "GET" ? search(c, owner) : undefined;
      }
      if (segments[1] !== "package") return undefined;
      const at = nameAt(segments.slice(2), rawSegments.slice(2));
      if (at?.rest[0] !== "dist-tags" || at.rest.length > 2) return undefined;
      return distTags(c, method, owner, at.name, at.rest[1]);
    }
    const at = nameAt(segments, rawSegments);
    if (!at) return undefined;
    const { name, rest } = at;
    const npm = c.get("services").npm;
    if (rest.length === 0) {
      if (method === "GET") return Response.json(await npm.document(owner, name));
      if (method !== "PUT") return undefined;
      c.get("services").packages.requireWrite(owner);
      await c.get("services").packageUploads.requireWritable(owner, "npm", name);
      await enforceQuota(c, owner.owner, "size:assets:packages:all");
      await npm.publish(owner, name, requestChunks(c.req.raw), { signal: c.req.raw.signal });
      return new Response(null, { status: 201 });
    }
    if (rest[0] === "-rev" && rest.length === 2) {
      if (method === "PUT") {
        // Forgejo's DeletePreview: npm tells what it keeps before deleting; nothing to do.
        c.get("services").packages.requireWrite(owner);
        await c.req.raw.body?.cancel();
        return new Response(null, { status: 200 });
      }
      if (method !== "DELETE") return undefined;
      await npm.deletePackage(owner, name);
      return new Response(null, { status: 200 });
    }
    if (rest[0] !== "-") return undefined;
    const [, first, second, ...tail] = rest;
    if (first === undefined) return undefined;
    if (second === undefined) {
      if (method !== "GET") return undefined;
      const opened = await npm.openByFilename(owner, name, first);
      return fileResponse(opened.file, opened.body);
    }
    if (tail.length === 0 && method === "GET") {
      const opened = await npm.open(owner, name, first, second);
      return fileResponse(opened.file, opened.body);
    }
    if (tail.length === 2 && tail[0] === "-rev" && method === "DELETE") {
      await npm.deleteVersion(owner, name, first);
      return new Response(null, { status: 200 });
    }
    return undefined;
  },
};

/** The furthest into the results a search may start (`from`); beyond it the page is empty. */
export const NPM_SEARCH_MAX_FROM = 10_000;
/** The longest search text taken; a longer one matches no name (names have at most 214 characters). */
const NPM_SEARCH_MAX_TEXT = 255;

/**
 * `GET /-/v1/search?text=…&size=…&from=…` (Forgejo's PackageSearch): `text` is matched within
 * names, `size` defaults to `[api] DEFAULT_PAGING_NUM` and is at most `MAX_RESPONSE_ITEMS`,
 * `from` is at most {@link NPM_SEARCH_MAX_FROM}; numbers that do not parse count as 0, as
 * Forgejo's FormInt. npm's ranking parameters (`quality`, `popularity`, …) are ignored.
 */
async function search(c: AppContext, owner: PackageOwnerAccess): Promise<Response> {
  const api = c.get("settings").api;
  const text = (c.req.query("text") ?? "").trim();
  const size = formInt(c.req.query("size"));
  const from = Math.max(0, formInt(c.req.query("from")));
  const limit = size <= 0 ? api.defaultPagingNum : Math.min(size, api.maxResponseItems);
  const npm = c.get("services").npm;
  if (text.length > NPM_SEARCH_MAX_TEXT) return Response.json({ objects: [], total: 0 });
  const found = await npm.search(owner, text, {
    from: Math.min(from, NPM_SEARCH_MAX_FROM),
    size: from > NPM_SEARCH_MAX_FROM ? 0 : limit,
  });
  return Response.json(found);
}

/**
 * Go's strconv.Atoi as Forgejo's FormInt uses it: a decimal integer (one out of range is the
 * largest of its sign), anything else 0.
 */
function formInt(value: string | undefined): number {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return 0;
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) ? n : Math.sign(n) * Number.MAX_SAFE_INTEGER;
}

/** `GET` lists the dist-tags; `PUT {tag}` (body: the version as a JSON string) sets one; `DELETE {tag}` removes it. */
async function distTags(
  c: AppContext,
  method: string,
  owner: PackageOwnerAccess,
  name: string,
  tag: string | undefined,
): Promise<Response | undefined> {
  const npm = c.get("services").npm;
  if (tag === undefined) return method === "GET" ? Response.json(await npm.tags(owner, name)) : undefined;
  if (method === "PUT") {
    c.get("services").packages.requireWrite(owner);
    const version = (await readBoundedText(c.req.raw, TAG_BODY_LIMIT)).trim().replace(/^"|"$/g, "");
    await npm.addTag(owner, name, tag, version);
    return new Response(null, { status: 200 });
  }
  if (method === "DELETE") {
    await npm.deleteTag(owner, name, tag);
    return new Response(null, { status: 200 });
  }
  return undefined;
}

/**
 * npm's `unpublish name@version` deletes `{tarball URL's path without its first slash}/-rev/{rev}`
 * resolved against the registry URL, so a registry under a path (ours: `/api/packages/{owner}/npm/`)
 * gets that path twice (npm/cli#4253). Forgejo answers 404 there, which npm takes for success and
 * the version stays published; Kiln takes the repeated registry path off. No route of a package
 * begins with it (a package named `api` has no `packages` path under it).
 */
function withoutRepeatedRegistryPath(request: RegistryRequest): {
  segments: readonly string[];
  rawSegments: readonly string[];
} {
  const { c, owner, segments, rawSegments } = request;
  const root = new URL(c.get("settings").server.rootUrl).pathname.split("/").filter(Boolean);
  const prefix = [...root, "api", "packages", owner.owner.name.toLowerCase(), "npm"];
  const repeated =
    segments.length > prefix.length &&
    prefix.every((part, i) => (segments[i] ?? "").toLowerCase() === part.toLowerCase());
  return repeated
    ? { segments: segments.slice(prefix.length), rawSegments: rawSegments.slice(prefix.length) }
    : { segments, rawSegments };
}

/**
 * The package name at the start of a path and what follows: `name`, `@scope/name` (two
 * segments) or `@scope%2Fname` (one encoded segment).
 */
function nameAt(
  segments: readonly string[],
  raw: readonly string[],
): { name: string; rest: readonly string[] } | undefined {
  const [first, second] = segments;
  if (!first) return undefined;
  if (!first.startsWith("@")) return { name: first, rest: segments.slice(1) };
  if (first.includes("/") && !(raw[0] ?? "").includes("/")) return { name: first, rest: segments.slice(1) };
  if (!second) return undefined;
  return { name: `${first}/${second}`, rest: segments.slice(2) };
}
