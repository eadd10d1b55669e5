import { type BlobStore, BlobTooLargeError, withStoredBlob } from "@kiln/blobs";
import {
  AlreadyExistsError,
  NotFoundError,
  type PackageFile,
  PayloadTooLargeError,
  PermissionDeniedError,
} from "@kiln/domain";
import { packages, quotaUsage, type VersionOfPackage } from "@kiln/storage";
import { heldToPackageLimits } from "../access/package-rules.js";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { type FileHashes, hashedBody } from "./hashed-body.js";
import type { PackageAccess, PackageOwnerAccess } from "./package-access.js";
import { PACKAGE_ERRORS } from "./package-service.js";

/** Bytes stored in the blob store, not yet recorded by any file. */
export interface StoredBlob {
  readonly key: string;
  readonly size: number;
  readonly hashes: FileHashes;
}

/** A file to record for a version of a package, once its bytes are stored. */
export interface NewFile {
  readonly type: string;
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  readonly isLead: boolean;
  /** Whether an existing version takes the file (generic) or is 409 (npm publishes whole versions). */
  readonly addToExistingVersion: boolean;
  /** The type's metadata of a new version. */
  readonly metadata?: unknown;
}

/** A property of a new version; a `unique` one moves from any other version of the package (a dist-tag). */
export interface VersionProperty {
  readonly name: string;
  readonly value: string;
  readonly unique?: boolean;
}

/**
 * Uploads to the package registries, for every type: a file's bytes are streamed into the blob
 * store (never held in memory) under the type's size limit, then recorded for a version in one
 * transaction with the owner's quota usage — the package owner's, never the uploader's.
 */
export class PackageUploads {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly packageAccess: PackageAccess,
    private readonly ledger: QuotaLedger,
    /** Where package files' bytes live (`[packages] PATH`). */
    private readonly blobs: BlobStore,
  ) {}

  /** The largest file of `type` the caller may upload (`LIMIT_SIZE_<TYPE>`; admins: none). */
  sizeLimit(oa: PackageOwnerAccess, type: string): number {
    const limit = this.ctx.settings.packages.limitSize[type] ?? -1;
    return limit < 0 || !heldToPackageLimits(oa.actor.user) ? Number.MAX_SAFE_INTEGER : limit;
  }

  /**
   * Streams `body` into the blob store under the type's size limit (413 beyond it, keeping
   * nothing), hashing it on the way, then runs `record` with the stored blob (which adds it with
   * {@link addFile}). A declared size over the limit, or over what `LIMIT_TOTAL_OWNER_SIZE` leaves
   * the owner, is refused before reading. When `record` throws (a bad checksum, a version taken
   * meanwhile, a limit), the stored bytes are removed again unless another file holds them.
   */
  async storeBlob<T>(
    oa: PackageOwnerAccess,
    type: string,
    body: AsyncIterable<Uint8Array>,
    options: { readonly declaredSize?: number; readonly signal?: AbortSignal },
    record: (blob: StoredBlob) => Promise<T>,
  ): Promise<T> {
    const maxBytes = this.sizeLimit(oa, type);
    const declared = options.declaredSize;
    if (declared !== undefined && declared > maxBytes) throw typeTooLarge(maxBytes);
    // Forgejo checks the owner's total before storing; with a declared size Kiln does too, so such
    // a refusal stores nothing (addFile judges the stored size again, exactly, in its transaction).
    const { limitTotalOwnerSize } = this.ctx.settings.packages;
    if (declared !== undefined && limitTotalOwnerSize > -1 && heldToPackageLimits(oa.actor.user)) {
      const usage = await quotaUsage.getUsage(this.ctx.db, oa.owner.id);
      if (usage.packages + declared > limitTotalOwnerSize)
        throw new PayloadTooLargeError(PACKAGE_ERRORS.totalSize);
    }
    const hashed = hashedBody(body);
    const putOptions = {
      maxBytes,
      referenced: (keys: readonly string[]) => packages.referencedBlobKeys(this.ctx.db, keys),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    try {
      return await withStoredBlob(this.blobs, hashed.body, putOptions, (stored) =>
        record({ key: stored.key, size: stored.size, hashes: hashed.digest() }),
      );
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw typeTooLarge(maxBytes);
      throw err;
    }
  }

  /**
   * Records a stored blob as a file of a version, creating the package and the version when
   * missing, with the owner's usage, in one transaction: 409 when the version (`addToExistingVersion`
   * false) or the file exists, 403/413 past `LIMIT_TOTAL_OWNER_COUNT`/`LIMIT_TOTAL_OWNER_SIZE`.
   * On any refusal nothing is recorded (and {@link storeBlob} removes the blob unless another file
   * holds the same bytes). `properties` are added to a new version.
   */
  async addFile(
    oa: PackageOwnerAccess,
    file: NewFile,
    blob: StoredBlob,
    properties: readonly VersionProperty[] = [],
  ): Promise<{ version: VersionOfPackage; file: PackageFile }> {
    const creator = this.packageAccess.requireWrite(oa);
    await this.requireWritable(oa, file.type, file.name);
    const { limitTotalOwnerCount, limitTotalOwnerSize } = this.ctx.settings.packages;
    const limited = heldToPackageLimits(creator);
    return this.ctx.db.transaction().execute(async (trx) => {
      const pkg = await packages.lockOrCreatePackage(trx, {
        ownerId: oa.owner.id,
        type: file.type,
        name: file.name,
        lowerName: file.name.toLowerCase(),
      });
      let version = await packages.insertVersion(trx, {
        packageId: pkg.id,
        creatorId: creator.id,
        version: file.version,
        metadata: file.metadata ?? {},
      });
      if (version) {
        if (limited && limitTotalOwnerCount > -1) {
          const count = await packages.countOwnerVersions(trx, oa.owner.id);
          if (count > limitTotalOwnerCount) throw new PermissionDeniedError(PACKAGE_ERRORS.totalCount);
        }
        for (const p of properties) {
          if (p.unique) await packages.removePackageProperty(trx, pkg.id, p.name, p.value);
          await packages.addVersionProperty(trx, version.id, p.name, p.value);
        }
        // Forgejo's PackageCreate: a new version (a file added to an existing one fires nothing).
        await this.ctx.events.record(trx, {
          repoId: pkg.repoId,
          ownerId: oa.owner.id,
          actorId: creator.id,
          at: new Date(),
          type: "package",
          action: "created",
          packageVersionId: version.id,
        });
      } else {
        if (!file.addToExistingVersion) throw new AlreadyExistsError(PACKAGE_ERRORS.versionExists);
        version = await packages.findVersionOf(trx, pkg.id, file.version.toLowerCase());
        if (!version) throw new NotFoundError(PACKAGE_ERRORS.notFound);
      }
      const stored = await packages.insertFile(trx, {
        versionId: version.id,
        name: file.filename,
        isLead: file.isLead,
        blobKey: blob.key,
        size: blob.size,
        hashMd5: blob.hashes.md5,
        hashSha1: blob.hashes.sha1,
        hashSha512: blob.hashes.sha512,
      });
      if (!stored) throw new AlreadyExistsError(PACKAGE_ERRORS.fileExists);
      await this.ledger.record(trx, oa.owner.id, { packages: blob.size });
      if (limited && limitTotalOwnerSize > -1) {
        // Read after the increment: the ledger row is locked by it, so concurrent uploads of one
        // owner are judged one after the other and none slips past the limit.
        const usage = await quotaUsage.getUsage(trx, oa.owner.id);
        if (usage.packages > limitTotalOwnerSize) throw new PayloadTooLargeError(PACKAGE_ERRORS.totalSize);
      }
      return { version: { package: pkg, version }, file: stored };
    });
  }

  /**
   * Throws 404 when the package exists and is linked to a repository the caller may not see: a
   * writer of the owner's packages (a `public-only` token of the owner) learns nothing of it and
   * cannot add to it.
   */
  async requireWritable(oa: PackageOwnerAccess, type: string, name: string): Promise<void> {
    const pkg = await packages.findPackage(this.ctx.db, oa.owner.id, type, name.toLowerCase());
    if (pkg)
      await this.packageAccess.requireVisible(
        oa.actor,
        pkg,
        () => new NotFoundError(PACKAGE_ERRORS.notFound),
      );
  }

  /** Whether the version has a file of this name already (a cheap 409 before any byte is read). */
  async hasFile(oa: PackageOwnerAccess, type: string, name: string, version: string, filename: string) {
    const found = await packages.findVersion(
      this.ctx.db,
      oa.owner.id,
      type,
      name.toLowerCase(),
      version.toLowerCase(),
    );
    return (
      found !== undefined && (await packages.findFile(this.ctx.db, found.version.id, filename)) !== undefined
    );
  }
}

function typeTooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`${PACKAGE_ERRORS.typeSize}: the limit is ${maxBytes} bytes`);
}
