import {
  AlreadyExistsError,
  InvalidArgumentError,
  isKilnError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type User,
} from "@kiln/domain";
import { isValidTagName } from "@kiln/git";
import { type Db, isUniqueViolation, type ReleaseRow, releases } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { writesUnit } from "../access/repo-rules.js";
import { removeAttachments } from "../attachments/attachment-service.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import type { TagService } from "../git/tag-service.js";

/** What creating a release takes (Forgejo's CreateReleaseOption). */
export interface CreateReleaseInput {
  readonly tagName: string;
  /** Branch, tag or commit the tag is created from when it does not exist (default branch by default). */
  readonly target?: string | undefined;
  readonly title?: string | undefined;
  readonly note?: string | undefined;
  readonly draft?: boolean | undefined;
  readonly prerelease?: boolean | undefined;
  readonly hideArchiveLinks?: boolean | undefined;
}

/** What editing a release takes (Forgejo's EditReleaseOption): empty strings change nothing. */
export type EditReleaseInput = Partial<CreateReleaseInput>;

/** Filters of `GET /releases`. */
export interface ReleaseListQuery {
  readonly draft?: boolean | undefined;
  readonly prerelease?: boolean | undefined;
  readonly q?: string | undefined;
}

/** Forgejo's release titles are cut at 255 bytes (SplitStringAtByteN). */
function limitTitle(title: string): string {
  const bytes = Buffer.from(title);
  if (bytes.length <= 255) return title;
  let end = 255;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString();
}

/**
 * Releases (Forgejo's routers/api/v1/repo/release*.go and services/release): a release names a
 * tag; publishing one whose tag does not exist creates the tag from `target_commitish` (a draft
 * creates no tag until it is published). Drafts are seen only by those who may write releases.
 * Publishing, editing and deleting a published release record `release` events (a draft fires
 * none until it is published, as Forgejo). Deleting a release keeps its tag and removes its
 * assets with their usage.
 */
export class ReleaseService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly tags: TagService,
  ) {}

  /** Whether the caller sees drafts (Forgejo: write access to releases). */
  seesDrafts(access: RepoAccess): boolean {
    return writesUnit(access, "repo.releases");
  }

  async list(access: RepoAccess, query: ReleaseListQuery, page: PageRequest): Promise<Paged<ReleaseRow>> {
    return releases.listReleases(
      this.ctx.db,
      access.repo.id,
      {
        includeDrafts: this.seesDrafts(access),
        draft: query.draft,
        prerelease: query.prerelease,
        keyword: query.q?.trim().slice(0, 255),
      },
      page,
    );
  }

  /** A release by id; 404 when it is not of this repository or is a draft the caller may not see. */
  async get(access: RepoAccess, id: number): Promise<ReleaseRow> {
    const row = await releases.findRelease(this.ctx.db, access.repo.id, id);
    if (!row || (row.isDraft && !this.seesDrafts(access))) throw releaseNotFound(id);
    return row;
  }

  async getByTag(access: RepoAccess, tag: string): Promise<ReleaseRow> {
    const row = await releases.findReleaseByTag(this.ctx.db, access.repo.id, tag);
    if (!row || (row.isDraft && !this.seesDrafts(access)))
      throw new NotFoundError(`release tag does not exist [tag: ${tag}]`);
    return row;
  }

  /** The newest published release that is not a pre-release. */
  async latest(access: RepoAccess): Promise<ReleaseRow> {
    const row = await releases.latestRelease(this.ctx.db, access.repo.id);
    if (!row) throw new NotFoundError("release does not exist [id: 0, tag: latest]");
    return row;
  }

  async create(access: RepoAccess, doer: User, input: CreateReleaseInput): Promise<ReleaseRow> {
    const repo = access.repo;
    if (repo.isEmpty) throw new InvalidArgumentError("repo is empty");
    const tagName = input.tagName.trim();
    if (!isValidTagName(tagName))
      throw new InvalidArgumentError(`release tag name is not valid [tag_name: ${tagName}]`);
    if (await releases.findReleaseByTag(this.ctx.db, repo.id, tagName)) throw releaseExists(tagName);
    const target = input.target || repo.defaultBranch;
    const draft = input.draft ?? false;
    const sha1 = draft
      ? await this.tagCommit(access, tagName)
      : await this.ensureTag(access, doer, tagName, target);
    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const row = await releases.insertRelease(trx, {
          repoId: repo.id,
          publisherId: doer.id,
          tagName,
          lowerTagName: tagName.toLowerCase(),
          target,
          title: limitTitle(input.title ?? ""),
          note: input.note ?? "",
          sha1,
          isDraft: draft,
          isPrerelease: input.prerelease ?? false,
          hideArchiveLinks: input.hideArchiveLinks ?? false,
        });
        if (!draft) await this.published(trx, access, doer, row);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw releaseExists(tagName);
      throw error;
    }
  }

  /**
   * Edits a release as Forgejo's EditRelease: non-empty strings and given flags change. Publishing
   * a draft creates its tag if needed and records the action; a draft's time is the last edit's.
   */
  async edit(access: RepoAccess, doer: User, id: number, input: EditReleaseInput): Promise<ReleaseRow> {
    const current = await this.get(access, id);
    const tagName = input.tagName?.trim() || current.tagName;
    if (tagName !== current.tagName && !isValidTagName(tagName))
      throw new InvalidArgumentError(`release tag name is not valid [tag_name: ${tagName}]`);
    const target = input.target || current.target;
    const draft = input.draft ?? current.isDraft;
    const publishing = current.isDraft && !draft;
    let sha1 = current.sha1;
    if (!draft) {
      if (tagName !== current.tagName || publishing || !sha1)
        sha1 = await this.ensureTag(access, doer, tagName, target);
    } else if (tagName !== current.tagName) sha1 = await this.tagCommit(access, tagName);
    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const updated = await releases.updateRelease(trx, current.id, {
          tagName,
          lowerTagName: tagName.toLowerCase(),
          target,
          ...(input.title ? { title: limitTitle(input.title) } : {}),
          ...(input.note ? { note: input.note } : {}),
          isDraft: draft,
          ...(input.prerelease !== undefined ? { isPrerelease: input.prerelease } : {}),
          ...(input.hideArchiveLinks !== undefined ? { hideArchiveLinks: input.hideArchiveLinks } : {}),
          sha1,
          ...(draft || publishing ? { createdAt: new Date() } : {}),
        });
        if (!updated) throw releaseNotFound(id);
        if (publishing) await this.published(trx, access, doer, updated);
        else if (!draft) await this.recordRelease(trx, access, doer, updated, "updated");
        return updated;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw releaseExists(tagName);
      throw error;
    }
  }

  /** Deletes a release (its tag stays), its assets and their usage, in one transaction. */
  async delete(access: RepoAccess, release: ReleaseRow): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      if (!release.isDraft && access.viewer)
        await this.recordRelease(trx, access, access.viewer, release, "deleted");
      await removeAttachments(trx, access.repo.id, { releaseId: release.id });
      await releases.deleteRelease(trx, release.id);
    });
  }

  /** The commit of an existing tag, or "" when there is none. */
  private async tagCommit(access: RepoAccess, name: string): Promise<string> {
    try {
      const tag = await this.tags.get(access.repo, name);
      return tag.commit?.sha ?? tag.sha;
    } catch (error) {
      if (isKilnError(error) && (error.kind === "not_found" || error.kind === "invalid_argument")) return "";
      throw error;
    }
  }

  /** The tag's commit, creating the tag from `target` first when it does not exist (Forgejo's createTag). */
  private async ensureTag(access: RepoAccess, doer: User, name: string, target: string): Promise<string> {
    const existing = await this.tagCommit(access, name);
    if (existing) return existing;
    try {
      const tag = await this.tags.create(access.repo, doer, { name, target });
      return tag.commit?.sha ?? tag.sha;
    } catch (error) {
      if (isKilnError(error) && error.kind === "not_found")
        throw new NotFoundError(`target "${target}" not found`);
      if (isKilnError(error) && error.kind === "already_exists") return this.tagCommit(access, name);
      throw error;
    }
  }

  /** Forgejo's NotifyNewRelease: the `release` event `published` (the feed's publish_release entry). */
  private async published(db: Db, access: RepoAccess, doer: User, row: ReleaseRow): Promise<void> {
    await this.recordRelease(db, access, doer, row, "published");
  }

  private async recordRelease(
    db: Db,
    access: RepoAccess,
    doer: User,
    row: ReleaseRow,
    action: "published" | "updated" | "deleted",
  ): Promise<void> {
    await this.ctx.events.record(db, {
      ...inRepo(access.repo, doer.id),
      type: "release",
      action,
      releaseId: row.id,
    });
  }
}

function releaseNotFound(id: number): NotFoundError {
  return new NotFoundError(`release does not exist [id: ${id}, tag: ]`);
}

function releaseExists(tag: string): AlreadyExistsError {
  return new AlreadyExistsError(`release tag already exist [tag_name: ${tag}]`);
}
