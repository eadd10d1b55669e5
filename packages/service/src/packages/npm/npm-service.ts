import { BadRequestError, NotFoundError } from "@kiln/domain";
import { packages } from "@kiln/storage";
import { viewerOf } from "../../access/actor.js";
import type { ServiceContext } from "../../context.js";
import type { PackageAccess, PackageOwnerAccess } from "../package-access.js";
import { type OpenedFile, PACKAGE_ERRORS, type PackageService } from "../package-service.js";
import type { PackageUploads } from "../package-uploads.js";
import { npmDocument, npmSearchResult } from "./npm-document.js";
import { readNpmPublish } from "./npm-package.js";
import { splitPublishBody } from "./publish-body.js";
import { looksLikeVersion } from "./semver.js";

/** The version property holding an npm dist-tag (Forgejo's `npm.tag`). */
export const NPM_TAG = "npm.tag";
/** The most bytes of a publish document besides its tarball (package.json, readme…); more is 413. */
export const NPM_DOCUMENT_LIMIT = 16 * 1024 * 1024;
const TYPE = "npm";

/** Forgejo's message for a dist-tag that is empty or reads as a version. */
export const INVALID_TAG = "The tag name is invalid";

/**
 * The npm registry (Forgejo's routers/api/packages/npm over services/packages): publish a version
 * from `npm publish`'s document (its tarball streamed into the blob store while the rest is
 * read), the package document `npm install` reads, tarball downloads, dist-tags and unpublishing.
 */
export class NpmService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly packages: PackageService,
    private readonly uploads: PackageUploads,
    private readonly packageAccess: PackageAccess,
  ) {}

  /**
   * Publishes the version a `PUT /{name}` body holds: 409 when it exists, 400 for an invalid
   * name, version, tarball or integrity; the dist-tags it names move to it.
   */
  async publish(
    oa: PackageOwnerAccess,
    pathName: string,
    body: AsyncIterable<Uint8Array>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    this.packageAccess.requireWrite(oa);
    const split = splitPublishBody(body, NPM_DOCUMENT_LIMIT);
    await this.uploads.storeBlob(oa, TYPE, split.tarball, options, async (blob) => {
      const pub = readNpmPublish(split.document(), blob);
      if (pub.name !== pathName) throw new BadRequestError("package name is invalid");
      for (const tag of pub.distTags) if (!validTag(tag)) throw new BadRequestError(INVALID_TAG);
      await this.uploads.addFile(
        oa,
        {
          type: TYPE,
          name: pub.name,
          version: pub.version,
          filename: pub.filename,
          isLead: true,
          addToExistingVersion: false,
          metadata: pub.metadata,
        },
        blob,
        pub.distTags.map((value) => ({ name: NPM_TAG, value, unique: true })),
      );
    });
  }

  /** The package document of `name` (404 when it has no version the caller may see). */
  async document(oa: PackageOwnerAccess, name: string): Promise<Record<string, unknown>> {
    const list = await this.packages.versionsOf(oa, TYPE, name);
    const ids = list.map((v) => v.version.id);
    const [files, tags] = await Promise.all([
      this.packages.files(ids),
      packages.versionProperties(this.ctx.db, ids, NPM_TAG),
    ]);
    const registryUrl = `${this.ctx.settings.server.rootUrl}api/packages/${oa.owner.name}/npm`;
    return npmDocument(
      registryUrl,
      list.flatMap((version) => {
        const file = files.get(version.version.id)?.[0];
        const own = tags.filter((t) => t.versionId === version.version.id).map((t) => t.value);
        return file ? [{ version, file, tags: own }] : [];
      }),
    );
  }

  /**
   * The dist-tags of a package: tag → version (`{}` for a package that does not exist, as Forgejo;
   * 404 for one the caller may not see).
   */
  async tags(oa: PackageOwnerAccess, name: string): Promise<Record<string, string>> {
    const list = await this.visibleVersions(oa, name);
    const props = await packages.versionProperties(
      this.ctx.db,
      list.map((v) => v.version.id),
      NPM_TAG,
    );
    const version = new Map(list.map((v) => [v.version.id, v.version.version]));
    return Object.fromEntries(props.map((p) => [p.value, version.get(p.versionId) ?? ""]));
  }

  /** Points a dist-tag at a version (moving it from any other). */
  async addTag(oa: PackageOwnerAccess, name: string, tag: string, version: string): Promise<void> {
    this.packageAccess.requireWrite(oa);
    const found = await this.packages.version(oa, TYPE, name, version);
    if (!validTag(tag)) throw new BadRequestError(INVALID_TAG);
    await this.ctx.db.transaction().execute(async (trx) => {
      await packages.removePackageProperty(trx, found.package.id, NPM_TAG, tag);
      await packages.addVersionProperty(trx, found.version.id, NPM_TAG, tag);
    });
  }

  /** Removes a dist-tag from the package. */
  async deleteTag(oa: PackageOwnerAccess, name: string, tag: string): Promise<void> {
    this.packageAccess.requireWrite(oa);
    if (!validTag(tag)) throw new BadRequestError(INVALID_TAG);
    const list = await this.visibleVersions(oa, name);
    const pkg = list[0]?.package;
    if (pkg) await packages.removePackageProperty(this.ctx.db, pkg.id, NPM_TAG, tag);
  }

  /** The versions of a package the caller may see: none when it does not exist, 404 when it is hidden. */
  private async visibleVersions(oa: PackageOwnerAccess, name: string) {
    if (!(await packages.findPackage(this.ctx.db, oa.owner.id, TYPE, name.toLowerCase()))) return [];
    return this.packages.versionsOf(oa, TYPE, name);
  }

  /**
   * Forgejo's PackageSearch (`GET /-/v1/search`): the newest version of each of the owner's npm
   * packages whose name contains `text`, newest first, `size` of them from the `from`-th, with
   * how many match. Packages the caller may not see are left out in SQL.
   */
  async search(oa: PackageOwnerAccess, text: string, window: { from: number; size: number }) {
    const found = await packages.searchLatestVersions(
      this.ctx.db,
      { ownerId: oa.owner.id, type: TYPE, ...(text ? { query: text } : {}), viewer: viewerOf(oa.actor) },
      { offset: window.from, limit: window.size },
    );
    const registryUrl = `${this.ctx.settings.server.rootUrl}api/packages/${oa.owner.name}/npm`;
    return npmSearchResult(registryUrl, oa.owner.name, found.items, found.total);
  }

  /** A tarball by its version and file name. */
  open(oa: PackageOwnerAccess, name: string, version: string, filename: string): Promise<OpenedFile> {
    return this.packages.openFile(oa, TYPE, name, version, filename);
  }

  /** A tarball by its file name alone (`/{name}/-/{filename}`): the version holding it. */
  async openByFilename(oa: PackageOwnerAccess, name: string, filename: string): Promise<OpenedFile> {
    const list = await this.packages.versionsOf(oa, TYPE, name);
    const files = await this.packages.files(list.map((v) => v.version.id));
    for (const v of list) {
      const file = files.get(v.version.id)?.find((f) => f.lowerName === filename.toLowerCase());
      if (file) return this.packages.openFile(oa, TYPE, name, v.version.version, file.name);
    }
    throw new NotFoundError(PACKAGE_ERRORS.fileNotFound);
  }

  /** Unpublishes one version. */
  deleteVersion(oa: PackageOwnerAccess, name: string, version: string): Promise<void> {
    return this.packages.deleteVersion(oa, TYPE, name, version);
  }

  /** Unpublishes the whole package. */
  deletePackage(oa: PackageOwnerAccess, name: string): Promise<void> {
    return this.packages.deletePackage(oa, TYPE, name);
  }
}

function validTag(tag: string): boolean {
  return tag !== "" && tag.length <= 255 && !looksLikeVersion(tag);
}
