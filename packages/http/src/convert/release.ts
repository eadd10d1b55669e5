import type { Attachment, Release } from "@kiln/domain";
import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import type { AppContext } from "../env.js";
import type { RepoContext } from "../routes/repo/context.js";
import { apiUserOrGhost } from "./issue.js";

type ApiAttachment = v.InferOutput<typeof api.Attachment>;
type ApiRelease = v.InferOutput<typeof api.Release>;

/** Forgejo's ToAPIAttachment: stored files download from `{ROOT_URL}attachments/{uuid}`. */
export function toApiAttachment(a: Attachment, settings: Settings): ApiAttachment {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: formatTime(a.createdAt),
    uuid: a.uuid,
    browser_download_url: a.externalUrl ?? `${settings.server.rootUrl}attachments/${a.uuid}`,
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

/** Releases as the API shows them: assets and publishers loaded in one query each. */
export async function apiReleases(
  c: AppContext,
  ctx: RepoContext,
  rows: readonly Release[],
): Promise<ApiRelease[]> {
  const services = c.get("services");
  const settings = c.get("settings");
  const ids = rows.map((r) => r.id);
  const [assets, people] = await Promise.all([
    services.attachments.ofReleases(ids),
    services.users.findByIds([
      ...new Set(rows.map((r) => r.publisherId).filter((id): id is number => id !== null)),
    ]),
  ]);
  const byRelease = new Map<number, Attachment[]>();
  for (const a of assets)
    byRelease.set(a.releaseId as number, [...(byRelease.get(a.releaseId as number) ?? []), a]);
  const byId = new Map(people.map((u) => [u.id, u]));
  return rows.map((r) =>
    toApiRelease(
      r,
      ctx.repo,
      byRelease.get(r.id) ?? [],
      r.publisherId === null ? null : (byId.get(r.publisherId) ?? null),
      ctx.viewer,
      settings,
    ),
  );
}

/** One release as Forgejo's `Release`, from its row, assets and publisher (null: Ghost). */
export function toApiRelease(
  r: Release,
  repo: Pick<Repository, "ownerName" | "name">,
  assets: readonly Attachment[],
  publisher: User | null,
  viewer: User | null,
  settings: Settings,
): ApiRelease {
  const root = settings.server.rootUrl;
  const repoApi = `${root}api/v1/repos/${repo.ownerName}/${repo.name}`;
  const repoHtml = `${root}${repo.ownerName}/${repo.name}`;
  const url = `${repoApi}/releases/${r.id}`;
  const tag = escapeTag(r.tagName);
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
    author: apiUserOrGhost(publisher, viewer, settings),
    assets: assets.map((a) => toApiAttachment(a, settings)),
    // Kiln does not count source archive downloads.
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
