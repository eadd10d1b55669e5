/** The two git services served over smart HTTP. */
export type GitService = "git-upload-pack" | "git-receive-pack";

/** What a smart-HTTP request under `<owner>/<repo>.git/` asks for. */
export interface GitHttpRoute {
  /** `advertise`: `GET info/refs?service=…`; `rpc`: `POST git-upload-pack|git-receive-pack`. */
  readonly kind: "advertise" | "rpc";
  readonly service: GitService;
  /** The permission the caller must check before serving: clone/fetch read, push write. */
  readonly access: "read" | "write";
}

function asService(value: string | null): GitService | undefined {
  return value === "git-upload-pack" || value === "git-receive-pack" ? value : undefined;
}

/**
 * Classifies a request by method, the path below `<repo>.git/` (`info/refs`, `git-upload-pack`…)
 * and query string. Undefined when it is not a smart-HTTP git request (the dumb protocol is not served).
 */
export function classifyGitRequest(
  method: string,
  subpath: string,
  search: URLSearchParams,
): GitHttpRoute | undefined {
  const path = subpath.replace(/^\/+/, "");
  if (method === "GET" && path === "info/refs") {
    const service = asService(search.get("service"));
    return service ? { kind: "advertise", service, access: accessFor(service) } : undefined;
  }
  const service = asService(path);
  if (method === "POST" && service) return { kind: "rpc", service, access: accessFor(service) };
  return undefined;
}

/** The permission a service needs: pushing writes, everything else reads. */
export function accessFor(service: GitService): "read" | "write" {
  return service === "git-receive-pack" ? "write" : "read";
}

const SAFE_PROTOCOL = /^[0-9a-zA-Z._-]+=[0-9a-zA-Z._-]+(:[0-9a-zA-Z._-]+=[0-9a-zA-Z._-]+)*$/;

/** The `Git-Protocol` header when it is well-formed (e.g. `version=2`), for GIT_PROTOCOL; else undefined. */
export function gitProtocolOf(headers: Headers): string | undefined {
  const value = headers.get("git-protocol");
  return value && SAFE_PROTOCOL.test(value) ? value : undefined;
}

/** Headers that keep proxies and clients from caching git responses (Forgejo's and git's). */
export function noCacheHeaders(contentType: string): Headers {
  return new Headers({
    "content-type": contentType,
    expires: "Fri, 01 Jan 1980 00:00:00 GMT",
    pragma: "no-cache",
    "cache-control": "no-cache, max-age=0, must-revalidate",
  });
}
