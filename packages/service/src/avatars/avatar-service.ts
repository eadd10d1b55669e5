import { createHash } from "node:crypto";
import { type BlobStore, FsBlobStore, withStoredBlob } from "@kiln/blobs";
import { NotFoundError, type Repository, type User } from "@kiln/domain";
import { type AvatarOwner, avatars } from "@kiln/storage";
import { type CredentialCache, credentialCacheOf } from "../auth/credential-cache.js";
import type { ServiceContext } from "../context.js";
import type { BlobKind } from "../cron/blob-sweep.js";
import { checkAvatarImage } from "./avatar-image.js";
import { identiconPng } from "./identicon.js";

/** Which URL space an avatar hash is in: `/avatars/` (users, organizations) or `/repo-avatars/`. */
export type AvatarKind = "user" | "repo";

/** What `GET /avatars/<hash>` serves: an uploaded image from the store, or a generated identicon. */
export type AvatarContent =
  | {
      readonly kind: "stored";
      readonly contentType: string;
      readonly size: number;
      readonly createdAt: Date;
      readonly stream: ReadableStream<Uint8Array>;
    }
  | { readonly kind: "generated"; readonly contentType: "image/png"; readonly bytes: Buffer };

const HASH = /^[0-9a-f]{32}$/;

/** The md5 hex of a string (Forgejo's avatar hashes are md5 hex). */
function md5(data: string | Buffer): string {
  return createHash("md5").update(data).digest("hex");
}

/** The hash an account's avatar is served under: its upload's, else its identicon's. */
export function accountAvatarHash(user: Pick<User, "id" | "avatar">): string {
  return user.avatar || md5(`user-${user.id}`);
}

/** The hash a repository's avatar is served under: its upload's, else its identicon's. */
export function repoAvatarHash(repo: Pick<Repository, "id" | "avatar">): string {
  return repo.avatar || md5(`repo-${repo.id}`);
}

/**
 * Avatars of users, organizations and repositories (Forgejo's services/user/avatar.go and
 * services/repository/avatar.go). Uploaded images are checked (type from their bytes, size and
 * dimensions from `[picture]`), stored in the avatars' blob store and recorded in the same
 * transaction that points the owner at them; they count against no quota, as in Forgejo. Without
 * an upload, a deterministic identicon is served.
 */
export class AvatarService {
  private readonly generated = new Map<string, Buffer>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly store: BlobStore = new FsBlobStore(ctx.settings.picture.avatarPath),
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {}

  /** The avatars' blob kind, for the sweep and `kiln doctor`. */
  blobKind(): BlobKind {
    return {
      name: "avatars",
      store: this.store,
      referenced: (keys) => avatars.referencedBlobs(this.ctx.db, keys),
    };
  }

  /** Sets a user's or organization's avatar from a base64 image. */
  async setForAccount(account: User, image: string): Promise<void> {
    await this.set({ userId: account.id }, `${account.id}`, image);
    this.cache.forgetUser(account.id);
  }

  /** Removes a user's or organization's avatar: its identicon is served again. */
  async removeForAccount(account: User): Promise<void> {
    if (!(await avatars.clearAvatar(this.ctx.db, { userId: account.id }))) throw new NotFoundError();
    this.cache.forgetUser(account.id);
  }

  /** Sets a repository's avatar from a base64 image. */
  async setForRepo(repo: Repository, image: string): Promise<void> {
    await this.set({ repoId: repo.id }, `repo-${repo.id}`, image);
  }

  /** Removes a repository's avatar. */
  async removeForRepo(repo: Repository): Promise<void> {
    if (!(await avatars.clearAvatar(this.ctx.db, { repoId: repo.id }))) throw new NotFoundError();
  }

  /** What `/avatars/<hash>` (kind user) or `/repo-avatars/<hash>` serves; 404 for a malformed hash. */
  async open(kind: AvatarKind, hash: string): Promise<AvatarContent> {
    if (!HASH.test(hash)) throw new NotFoundError();
    const row = await avatars.findAvatar(this.ctx.db, kind, hash);
    if (row) {
      const stream = await this.store.open(row.blobKey).catch(() => undefined);
      if (stream) {
        return {
          kind: "stored",
          contentType: row.contentType,
          size: row.size,
          createdAt: row.createdAt,
          stream,
        };
      }
    }
    let bytes = this.generated.get(hash);
    if (!bytes) {
      bytes = identiconPng(hash);
      if (this.generated.size >= 1000) this.generated.clear();
      this.generated.set(hash, bytes);
    }
    return { kind: "generated", contentType: "image/png", bytes };
  }

  /**
   * Checks and stores the image, then (in one transaction) replaces the owner's avatar row. The
   * hash is Forgejo's HashAvatar, md5 of `<id>-<md5 of the bytes>` (`repo-<id>` for repositories,
   * whose hashes share one table with accounts'). A refusal after storing keeps no file.
   */
  private async set(owner: AvatarOwner, id: string, image: string): Promise<void> {
    const settings = this.ctx.settings.picture;
    const checked = checkAvatarImage(image, settings);
    const hash = md5(`${id}-${md5(checked.bytes)}`);
    const options = {
      maxBytes: settings.avatarMaxFileSize,
      referenced: (keys: readonly string[]) => avatars.referencedBlobs(this.ctx.db, keys),
    };
    await withStoredBlob(this.store, once(checked.bytes), options, (blob) =>
      this.ctx.db.transaction().execute(async (trx) => {
        const row = { hash, blobKey: blob.key, contentType: checked.contentType, size: blob.size };
        if (!(await avatars.setAvatar(trx, owner, row))) throw new NotFoundError();
      }),
    );
  }
}

/** The bytes as the one chunk of a stream, for the blob store. */
async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
