import type { Attachment, Release, Repository, Settings, User } from "@kiln/domain";
import { type Actor, releaseAssetUrls, type Services, toApiAttachment } from "@kiln/service";
import { raw } from "hono/html";
import { Icon } from "../../components/icon.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useHref } from "../../layout/frame.js";
import { accountPath, repoPath } from "../../urls.js";

/** A release as its page shows it: the notes already rendered and sanitized, assets with links. */
export interface ReleaseView {
  readonly release: Release;
  readonly notesHtml: string;
  readonly publisher: User | null;
  readonly assets: readonly { readonly name: string; readonly size: number; readonly url: string }[];
}

/**
 * Loads what the releases pages show of `rows`: assets and publishers in one query each, links
 * as the API's `browser_download_url` (the same converter), and the notes rendered through the
 * markup service, the sanitizer the API uses.
 */
export async function releaseViews(
  services: Services,
  settings: Settings,
  actor: Actor,
  repo: Repository,
  rows: readonly Release[],
): Promise<ReleaseView[]> {
  const [assets, people] = await Promise.all([
    services.attachments.ofReleases(rows.map((r) => r.id)),
    services.users.findByIds([
      ...new Set(rows.flatMap((r) => (r.publisherId === null ? [] : [r.publisherId]))),
    ]),
  ]);
  const byId = new Map(people.map((u) => [u.id, u]));
  const context = `${repo.ownerName}/${repo.name}`;
  return Promise.all(
    rows.map(async (release) => {
      const own = assets.filter((a: Attachment) => a.releaseId === release.id);
      const named = releaseAssetUrls(release, repo, own, settings);
      return {
        release,
        notesHtml: await services.markup.render(actor, { text: release.note, mode: "gfm", context }),
        publisher: release.publisherId === null ? null : (byId.get(release.publisherId) ?? null),
        assets: own.map((a) => ({
          name: a.name,
          size: a.size,
          url: toApiAttachment(a, settings, named.get(a.id)).browser_download_url,
        })),
      };
    }),
  );
}

/** Bytes as people read them (Forgejo's FileSize: 1.5 KiB). */
export function fileSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let n = bytes;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${n.toFixed(1)} ${units[unit]}`;
}

const escapeTag = (tag: string) => tag.split("/").map(encodeURIComponent).join("/");

/** One release: title, badges, tag and target, publisher and date, notes, assets and archives. */
export function ReleaseItem(props: { view: ReleaseView; repo: Repository; codeReadable: boolean }) {
  const href = useHref();
  const { release, notesHtml, publisher, assets } = props.view;
  const base = repoPath(props.repo.ownerName, props.repo.name);
  const tag = escapeTag(release.tagName);
  const headingId = `release-${release.id}`;
  return (
    <article class="release" aria-labelledby={headingId}>
      <header class="release-header">
        <h2 id={headingId} class="release-title">
          <a href={href(`${base}/releases/tag/${tag}`)}>{release.title || release.tagName}</a>
          {release.isDraft ? <span class="badge">Draft</span> : null}
          {release.isPrerelease ? <span class="badge">Pre-release</span> : null}
        </h2>
        <p class="muted release-meta">
          <Icon name="tag" /> <code>{release.tagName}</code> · target <code>{release.target}</code> ·{" "}
          {publisher ? <a href={href(accountPath(publisher.name))}>{publisher.name}</a> : "Ghost"} released{" "}
          <TimeAgo date={release.createdAt} />
        </p>
      </header>
      {notesHtml ? <div class="markup">{raw(notesHtml)}</div> : <p class="muted">No release notes.</p>}
      <section class="release-assets" aria-label={`Assets of ${release.title || release.tagName}`}>
        <h3>Assets</h3>
        <ul class="release-asset-list">
          {assets.map((a) => (
            <li>
              <a href={a.url}>{a.name}</a> <span class="muted">{fileSize(a.size)}</span>
            </li>
          ))}
          {props.codeReadable && !release.hideArchiveLinks && !release.isDraft ? (
            <>
              <li>
                <a href={href(`${base}/archive/${tag}.zip`)}>Source code (ZIP)</a>
              </li>
              <li>
                <a href={href(`${base}/archive/${tag}.tar.gz`)}>Source code (TAR.GZ)</a>
              </li>
            </>
          ) : null}
        </ul>
      </section>
    </article>
  );
}
