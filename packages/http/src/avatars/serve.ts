import type { AvatarKind } from "@kiln/service";
import type { AppContext, Mount } from "../env.js";

/** Forgejo's `[server] STATIC_CACHE_TIME` default (6h), which its avatar storage handler sends. */
const CACHE_CONTROL = "private, max-age=21600";

/**
 * `GET {ROOT_URL}avatars/{hash}` and `{ROOT_URL}repo-avatars/{hash}`: the `avatar_url` of users,
 * organizations and repositories. An uploaded avatar streams from the blob store with the content
 * type detected at upload; any other well-formed hash is a generated identicon (PNG), so an
 * avatar URL always shows a picture. The hash names the content (an upload changes it), so the
 * ETag is the hash and `If-None-Match` answers 304. Public, as in Forgejo: avatars are no secret.
 */
export function mountAvatars(mount: Mount): void {
  const serve = (kind: AvatarKind) => async (c: AppContext) => {
    const hash = c.req.param("hash") ?? "";
    const content = await c.get("services").avatars.open(kind, hash);
    const etag = `"${hash}"`;
    const headers = new Headers({
      "Content-Type": content.contentType,
      "Cache-Control": CACHE_CONTROL,
      "X-Content-Type-Options": "nosniff",
      ETag: etag,
    });
    const ifNoneMatch = c.req.header("If-None-Match");
    if (ifNoneMatch?.split(",").some((t) => [etag, `W/${etag}`, "*"].includes(t.trim()))) {
      if (content.kind === "stored") await content.stream.cancel();
      headers.delete("Content-Type");
      return new Response(null, { status: 304, headers });
    }
    if (content.kind === "stored") {
      headers.set("Content-Length", String(content.size));
      headers.set("Last-Modified", content.createdAt.toUTCString());
      return new Response(content.stream, { status: 200, headers });
    }
    headers.set("Content-Length", String(content.bytes.length));
    return new Response(new Uint8Array(content.bytes), { status: 200, headers });
  };
  mount("get", "/avatars/:hash", serve("user"));
  mount("get", "/repo-avatars/:hash", serve("repo"));
}
