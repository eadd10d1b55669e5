import type { Settings } from "@kiln/domain";

/** The path ROOT_URL puts the site under, without a trailing slash ("" at the root of a host). */
export function basePath(settings: Settings): string {
  return new URL(settings.server.rootUrl).pathname.replace(/\/+$/, "");
}

/** The path of an account's page. */
export function accountPath(name: string): string {
  return `/${encodeURIComponent(name)}`;
}

/** The path of a repository's page. */
export function repoPath(owner: string, name: string): string {
  return `/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}

/** A path with a query, leaving out empty values. */
export function withQuery(
  path: string,
  query: Readonly<Record<string, string | number | undefined>>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
