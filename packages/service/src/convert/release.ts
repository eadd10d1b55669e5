import type { Attachment, Release } from "@kiln/domain";
import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import { apiUserOrGhost } from "./issue.js";

type ApiAttachment = v.InferOutput<typeof api.Attachment>;
type ApiRelease = v.InferOutput<typeof api.Release>;

/**
 * Forgejo's ToAPIAttachment: an external file's own URL, else `downloadUrl` (a release asset's
 * named link, see {@link releaseAssetUrls}), else `{ROOT_URL}attachments/{uuid}`.
 */
export function toApiAttachment(a: Attachment, settings: Settings, downloadUrl?: string): ApiAttachment {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: formatTime(a.createdAt),
    uuid: a.uuid,
    browser_download_url: a.externalUrl ?? downloadUrl ?? `${settings.server.rootUrl}attachments/${a.uuid}`,
    type: a.externalUrl === null ? "attachment" : "external",
  };
}

/** Attachments as the API shows them, grouped by what holds them (an issue, a comment). */
export function groupAssets(
  rows: readonly Attachment[],
  key: (a: Attachment) => number | null,
  settings: Settings,
): Map<number, ApiAttachment[]> {
  const out = new Map<number, ApiAttachment[]>();
  for (const a of rows) {
    const k = key(a);
    if (k === null) continue;
    out.set(k, [...(out.get(k) ?? []), toApiAttachment(a, settings)]);
  }
  return out;
}

const escapeTag = (tag: string) => tag.split("/").map(encodeURIComponent).join("/");

/**
 * Go's `url.PathEscape`, as Forgejo escapes a release asset link's tag and name: what
 * `encodeURIComponent` escapes (`/` included, so a tag is one segment) except `$&+,:;=@`, plus `!'()*`.
 */
export function goPathEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
}

/**
 * Where a release's stored assets download from, by attachment id (Forgejo's
 * GetReleaseAttachments): `{repo}/releases/download/{tag}/{name}` when the release's asset names
 * are unique, so the links are predictable; none otherwise (each falls back to
 * `attachments/{uuid}`, as a name would not say which file is meant).
 */
export function releaseAssetUrls(
  release: Pick<Release, "tagName">,
  repo: Pick<Repository, "ownerName" | "name">,
  assets: readonly Attachment[],
  settings: Settings,
): Map<number, string> {
  const urls = new Map<number, string>();
  if (new Set(assets.map((a) => a.name)).size !== assets.length) return urls;
  const base = `${settings.server.rootUrl}${repo.ownerName}/${repo.name}/releases/download/${goPathEscape(release.tagName)}`;
  for (const a of assets) urls.set(a.id, `${base}/${goPathEscape(a.name)}`);
  return urls;
}

/** One release as Forgejo's `Release`, from its row, assets and publisher (null: Ghost). */
export function toApiRelease(
  r: Release,
  repo: Pick<Repository, "ownerName" | "name">,
  assets: readonly Attachment[],
  publisher: User | null,
  sight: AccountSight,
  settings: Settings,
): ApiRelease {
  const root = settings.server.rootUrl;
  const repoApi = `${root}api/v1/repos/${repo.ownerName}/${repo.name}`;
  const repoHtml = `${root}${repo.ownerName}/${repo.name}`;
  const url = `${repoApi}/releases/${r.id}`;
  const tag = escapeTag(r.tagName);
  const named = releaseAssetUrls(r, repo, assets, settings);
  return {
    id: r.id,
    tag_name: r.tagName,
    target_commitish: r.target,
    name: r.title,
    body: r.note,
    url,
    html_url: `${repoHtml}/releases/tag/${tag}`,
    tarball_url: `${repoHtml}/archive/${tag}.tar.gz`,
    zipball_url: `${repoHtml}/archive/${tag}.zip`,
    hide_archive_links: r.hideArchiveLinks,
    upload_url: `${url}/assets`,
    draft: r.isDraft,
    prerelease: r.isPrerelease,
    created_at: formatTime(r.createdAt),
    published_at: formatTime(r.createdAt),
    author: apiUserOrGhost(publisher, sight, settings),
    assets: assets.map((a) => toApiAttachment(a, settings, named.get(a.id))),
    // Kiln does not count source archive downloads.
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
