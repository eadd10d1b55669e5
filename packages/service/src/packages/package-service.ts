import type { BlobStore, ByteRange } from "@kiln/blobs";
import {
  BadRequestError,
  NotFoundError,
  type Package,
  type PackageFile,
  type Paged,
  type PageRequest,
  packageTypeName,
  type QuotaUsedPackage,
  type Repository,
  type User,
} from "@kiln/domain";
import { type Db, packages, users, type VersionOfPackage } from "@kiln/storage";
import type { AccessService } from "../access/access-service.js";
import { type Actor, viewerOf } from "../access/actor.js";
import { hasAccess, type RepoPermission } from "../access/repo-permission.js";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { PackageAccess, PackageOwnerAccess } from "./package-access.js";

/** Forgejo's messages for its package errors (models/packages, services/packages). */
export const PACKAGE_ERRORS = {
  notFound: "package does not exist",
  fileNotFound: "package file does not exist",
  versionExists: "package version already exists",
  fileExists: "package file already exists",
  typeSize: "maximum allowed package type size exceeded",
  totalSize: "maximum allowed package storage quota exceeded",
  totalCount: "maximum allowed package count exceeded",
} as const;

/** A package version as the API shows it, with what its conversion needs. */
export interface PackageView extends VersionOfPackage {
  readonly owner: User;
  readonly creator: User | null;
  /** The linked repository when the caller may see it. */
  readonly repository: {
    readonly repo: Repository;
    readonly owner: User;
    readonly permission: RepoPermission;
  } | null;
}

/** An opened package file: its record and its bytes (or the range asked for). */
export interface OpenedFile {
  readonly file: PackageFile;
  readonly body: ReadableStream<Uint8Array>;
}

/**
 * The package registry's operations, for every package type (Forgejo's services/packages): store
 * a file's bytes (streamed into the blob store, never held in memory), record it for a version in
 * one transaction with the owner's quota usage, read, list and delete versions and files. Usage
 * is the sum of the files' sizes, counted against the package owner, never the uploader.
 * Callers get the owner through {@link PackageAccess}; this service never decides visibility.
 */
export class PackageService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
    private readonly packageAccess: PackageAccess,
    private readonly ledger: QuotaLedger,
    /** Where package files' bytes live (`[packages] PATH`). */
    readonly blobs: BlobStore,
  ) {}

  /** The caller's standing towards an owner's packages (404 when the owner is hidden). */
  owner(actor: Actor, ownerName: string): Promise<PackageOwnerAccess> {
    return this.packageAccess.owner(actor, ownerName);
  }

  /** Throws Forgejo's refusal (403; the registries answer 401) when the caller may not write the owner's packages. */
  requireWrite(oa: PackageOwnerAccess): User {
    return this.packageAccess.requireWrite(oa);
  }

  /** A version the caller may see (404 when missing, or linked to a repository it may not see). */
  async version(
    oa: PackageOwnerAccess,
    type: string,
    name: string,
    version: string,
  ): Promise<VersionOfPackage> {
    const found = await packages.findVersion(
      this.ctx.db,
      oa.owner.id,
      type,
      name.toLowerCase(),
      version.toLowerCase(),
    );
    if (!found) throw new NotFoundError(PACKAGE_ERRORS.notFound);
    await this.packageAccess.requireVisible(
      oa.actor,
      found.package,
      () => new NotFoundError(PACKAGE_ERRORS.notFound),
    );
    return found;
  }

  /** A package (all its versions, oldest first) the caller may see; 404 when it has none. */
  async versionsOf(oa: PackageOwnerAccess, type: string, name: string): Promise<VersionOfPackage[]> {
    const pkg = await packages.findPackage(this.ctx.db, oa.owner.id, type, name.toLowerCase());
    if (!pkg) throw new NotFoundError(PACKAGE_ERRORS.notFound);
    await this.packageAccess.requireVisible(oa.actor, pkg, () => new NotFoundError(PACKAGE_ERRORS.notFound));
    const list = await packages.versionsOfPackage(this.ctx.db, pkg.id);
    if (list.length === 0) throw new NotFoundError(PACKAGE_ERRORS.notFound);
    return list;
  }

  /** The files of versions, by version id, lead file first. */
  files(versionIds: readonly number[]): Promise<Map<number, PackageFile[]>> {
    return packages.filesOfVersions(this.ctx.db, versionIds);
  }

  /** Opens a file of a visible version (404 for a missing version or file). */
  async openFile(
    oa: PackageOwnerAccess,
    type: string,
    name: string,
    version: string,
    filename: string,
    range?: (size: number) => ByteRange | undefined,
  ): Promise<OpenedFile & { range?: ByteRange }> {
    const found = await this.version(oa, type, name, version);
    const file = await packages.findFile(this.ctx.db, found.version.id, filename);
    if (!file) throw new NotFoundError(PACKAGE_ERRORS.fileNotFound);
    const wanted = range?.(file.size);
    const body = await this.blobs.open(file.blobKey, wanted);
    return { file, body, ...(wanted ? { range: wanted } : {}) };
  }

  /** A page of the owner's versions the caller may see, newest first, `type` and name filters. */
  async list(
    oa: PackageOwnerAccess,
    filter: { readonly type?: string; readonly query?: string },
    page: PageRequest,
  ): Promise<Paged<PackageView>> {
    const list = await packages.listVersions(
      this.ctx.db,
      { ownerId: oa.owner.id, viewer: viewerOf(oa.actor), ...filter },
      page,
    );
    return { items: await this.views(oa, list.items), total: list.total };
  }

  /** The API's view of versions: creators, owner and linked repositories in one query each. */
  async views(oa: PackageOwnerAccess, list: readonly VersionOfPackage[]): Promise<PackageView[]> {
    const creatorIds = [
      ...new Set(list.map((v) => v.version.creatorId).filter((id): id is number => id !== null)),
    ];
    const repoIds = [...new Set(list.map((v) => v.package.repoId).filter((id): id is number => id !== null))];
    const [creators, repos] = await Promise.all([
      users.findUsersByIds(this.ctx.db, creatorIds),
      packages.linkedRepositories(this.ctx.db, repoIds),
    ]);
    const byId = new Map(creators.map((u) => [u.id, u]));
    const permissions = await this.access.repoPermissions(oa.actor, repos);
    const repoById = new Map(repos.map((r) => [r.id, r]));
    return list.map((v) => {
      const repo = v.package.repoId === null ? undefined : repoById.get(v.package.repoId);
      const access = repo ? permissions.get(repo.id) : undefined;
      const visible = access !== undefined && hasAccess(access.permission);
      return {
        ...v,
        owner: oa.owner,
        creator: v.version.creatorId === null ? null : (byId.get(v.version.creatorId) ?? null),
        repository:
          repo && access && visible ? { repo, owner: access.owner, permission: access.permission } : null,
      };
    });
  }

  /** Deletes a version with its files; its usage goes at once (the bytes with the next sweep). */
  async deleteVersion(oa: PackageOwnerAccess, type: string, name: string, version: string): Promise<void> {
    const doer = this.packageAccess.requireWrite(oa);
    const found = await this.version(oa, type, name, version);
    await this.ctx.db.transaction().execute(async (trx) => {
      const pkg = await packages.lockPackage(trx, oa.owner.id, type, found.package.lowerName);
      if (!pkg) throw new NotFoundError(PACKAGE_ERRORS.notFound);
      await this.recordDeleted(trx, pkg, doer.id, found.version.id);
      const sizes = await packages.deleteVersion(trx, found.version.id);
      await this.ledger.record(trx, oa.owner.id, { packages: -sum(sizes) });
      await packages.deletePackageIfEmpty(trx, pkg.id);
    });
  }

  /** Deletes every version of a package (npm's unpublish of a whole package). */
  async deletePackage(oa: PackageOwnerAccess, type: string, name: string): Promise<void> {
    const doer = this.packageAccess.requireWrite(oa);
    const list = await this.versionsOf(oa, type, name);
    await this.ctx.db.transaction().execute(async (trx) => {
      const pkg = await packages.lockPackage(trx, oa.owner.id, type, list[0]?.package.lowerName ?? "");
      if (!pkg) throw new NotFoundError(PACKAGE_ERRORS.notFound);
      let freed = 0;
      for (const v of list) {
        await this.recordDeleted(trx, pkg, doer.id, v.version.id);
        freed += sum(await packages.deleteVersion(trx, v.version.id));
      }
      await this.ledger.record(trx, oa.owner.id, { packages: -freed });
      await packages.deletePackageIfEmpty(trx, pkg.id);
    });
  }

  /** Deletes one file; the last file of a version takes the version with it (Forgejo's generic registry). */
  async deleteFile(
    oa: PackageOwnerAccess,
    type: string,
    name: string,
    version: string,
    filename: string,
  ): Promise<void> {
    const doer = this.packageAccess.requireWrite(oa);
    const found = await this.version(oa, type, name, version);
    await this.ctx.db.transaction().execute(async (trx) => {
      const pkg = await packages.lockPackage(trx, oa.owner.id, type, found.package.lowerName);
      if (!pkg) throw new NotFoundError(PACKAGE_ERRORS.notFound);
      const files = (await packages.filesOfVersions(trx, [found.version.id])).get(found.version.id) ?? [];
      const file = files.find((f) => f.lowerName === filename.toLowerCase());
      if (!file) throw new NotFoundError(PACKAGE_ERRORS.fileNotFound);
      if (files.length === 1) await this.recordDeleted(trx, pkg, doer.id, found.version.id);
      const freed =
        files.length === 1
          ? sum(await packages.deleteVersion(trx, found.version.id))
          : ((await packages.deleteFile(trx, file.id)) ?? 0);
      await this.ledger.record(trx, oa.owner.id, { packages: -freed });
      await packages.deletePackageIfEmpty(trx, pkg.id);
    });
  }

  /** Forgejo's PackageDelete, recorded while the version is still there for consumers to read. */
  private async recordDeleted(trx: Db, pkg: Package, actorId: number, versionId: number): Promise<void> {
    await this.ctx.events.record(trx, {
      repoId: pkg.repoId,
      ownerId: pkg.ownerId,
      actorId,
      at: new Date(),
      type: "package",
      action: "deleted",
      packageVersionId: versionId,
    });
  }

  /**
   * Links a package to a repository of its owner (Forgejo's LinkToRepository): the caller needs
   * write access to the repository's packages; an already linked package is 400.
   */
  async link(oa: PackageOwnerAccess, type: string, name: string, repoName: string): Promise<void> {
    this.packageAccess.requireWrite(oa);
    const pkg = await packages.findPackage(this.ctx.db, oa.owner.id, type, name.toLowerCase());
    if (!pkg) throw new NotFoundError(PACKAGE_ERRORS.notFound);
    await this.packageAccess.requireVisible(oa.actor, pkg, () => new NotFoundError(PACKAGE_ERRORS.notFound));
    const { repo } = await this.access.repo(oa.actor, oa.owner.name, repoName, { write: ["repo.packages"] });
    if (pkg.repoId !== null)
      throw new BadRequestError("invalid argument: the package is already linked to a repository");
    await packages.setRepositoryLink(this.ctx.db, pkg.id, repo.id);
  }

  /** Unlinks a package from its repository (400 when it is not linked). */
  async unlink(oa: PackageOwnerAccess, type: string, name: string): Promise<void> {
    this.packageAccess.requireWrite(oa);
    const pkg = await packages.findPackage(this.ctx.db, oa.owner.id, type, name.toLowerCase());
    if (!pkg) throw new NotFoundError(PACKAGE_ERRORS.notFound);
    await this.packageAccess.requireVisible(oa.actor, pkg, () => new NotFoundError(PACKAGE_ERRORS.notFound));
    if (pkg.repoId === null)
      throw new BadRequestError("invalid argument: the package is not linked to a repository");
    await this.access.repoById(oa.actor, pkg.repoId, { write: ["repo.packages"] });
    await packages.setRepositoryLink(this.ctx.db, pkg.id, null);
  }

  /**
   * Package versions counting against an owner, largest first (the lister of `/user/quota/packages`);
   * a `public-only` caller does not see those linked to a private repository.
   */
  async usedItems(
    ownerId: number,
    page: PageRequest,
    scope: { readonly publicOnly: boolean } = { publicOnly: false },
  ): Promise<Paged<QuotaUsedPackage>> {
    const [owner, list] = await Promise.all([
      users.findUserById(this.ctx.db, ownerId),
      packages.usedPackages(this.ctx.db, ownerId, page, scope),
    ]);
    const path = (s: string) => encodeURIComponent(s);
    return {
      items: list.items.map((v) => ({
        name: v.package.name,
        type: packageTypeName(v.package.type),
        version: v.version.version,
        size: v.size,
        htmlPath: `${owner?.name ?? ""}/-/packages/${v.package.type}/${path(v.package.lowerName)}/${path(v.version.lowerVersion)}`,
      })),
      total: list.total,
    };
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
