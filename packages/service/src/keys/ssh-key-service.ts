import {
  type DeployKeyEntry,
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type SshKey,
  type User,
} from "@kiln/domain";
import { isUniqueViolation, sshKeys } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { parseSshPublicKey } from "./ssh-key-parse.js";

/** Forgejo's HandleAddKeyError texts. */
const KEY_USED = "Key content has been used as non-deploy key";
const TITLE_USED = "Key title has been used";
const DEPLOYED_ALREADY = "This key has already been added to this repository";

/**
 * SSH keys of users and deploy keys of repositories (Forgejo's services/asymkey and
 * models/asymkey ssh_key*.go, deploy_key.go). A fingerprint is held once across the instance: a
 * user's key cannot also be a deploy key or another user's key; one deploy key may serve several
 * repositories. The routes resolved the user or repository (and the caller's right to it) first.
 */
export class SshKeyService {
  constructor(private readonly ctx: ServiceContext) {}

  /** One page of a user's keys; `fingerprint` narrows it to that key (Forgejo's filter). */
  async list(owner: User, page: PageRequest, fingerprint?: string): Promise<Paged<SshKey>> {
    return sshKeys.listUserKeys(this.ctx.db, owner.id, page, fingerprint || undefined);
  }

  /** A user's key; 404 when the user has no key of that id. */
  async get(owner: User, id: number): Promise<SshKey> {
    const key = await sshKeys.findUserKey(this.ctx.db, owner.id, id);
    if (!key) throw new NotFoundError(`public key does not exist [id: ${id}]`);
    return key;
  }

  /** Adds a key to a user (Forgejo's CheckPublicKeyString then AddPublicKey); 422 with Forgejo's texts. */
  async create(owner: User, title: string, text: string): Promise<SshKey> {
    const parsed = parseSshPublicKey(text, this.ctx.settings.ssh);
    return this.ctx.db.transaction().execute(async (trx) => {
      if (await sshKeys.findKeyByFingerprint(trx, parsed.fingerprint))
        throw new InvalidArgumentError(KEY_USED);
      if (await sshKeys.userKeyNameUsed(trx, owner.id, title)) throw new InvalidArgumentError(TITLE_USED);
      try {
        return await sshKeys.insertUserKey(trx, {
          ownerId: owner.id,
          name: title,
          fingerprint: parsed.fingerprint,
          content: parsed.content,
        });
      } catch (error) {
        throw uniqueToInvalid(error, {
          public_key_fingerprint_key: KEY_USED,
          public_key_owner_name_key: TITLE_USED,
        });
      }
    });
  }

  /** Deletes a user's key; 404 when the user has no key of that id. */
  async delete(owner: User, id: number): Promise<void> {
    if (!(await sshKeys.deleteUserKey(this.ctx.db, owner.id, id))) {
      throw new NotFoundError(`public key does not exist [id: ${id}]`);
    }
  }

  /** One page of a repository's deploy keys, filtered by public key id or fingerprint as Forgejo's. */
  async listDeploy(
    repo: Repository,
    page: PageRequest,
    filter: { keyId?: number; fingerprint?: string },
  ): Promise<Paged<DeployKeyEntry>> {
    return sshKeys.listDeployKeys(this.ctx.db, repo.id, page, filter);
  }

  /** A repository's deploy key; 404 when it has none of that id. */
  async getDeploy(repo: Repository, id: number): Promise<DeployKeyEntry> {
    const key = await sshKeys.findDeployKey(this.ctx.db, repo.id, id);
    if (!key)
      throw new NotFoundError(`deploy key does not exist [id: ${id}, key_id: 0, repo_id: ${repo.id}]`);
    return key;
  }

  /** Deploys a key to a repository (Forgejo's AddDeployKey), read-only or read-write. */
  async createDeploy(
    repo: Repository,
    title: string,
    text: string,
    readOnly: boolean,
  ): Promise<DeployKeyEntry> {
    const parsed = parseSshPublicKey(text, this.ctx.settings.ssh);
    return this.ctx.db.transaction().execute(async (trx) => {
      const existing = await sshKeys.findKeyByFingerprint(trx, parsed.fingerprint);
      if (existing && existing.type !== sshKeys.KEY_TYPE_DEPLOY) throw new InvalidArgumentError(KEY_USED);
      const clash = await sshKeys.deployKeyClash(trx, repo.id, title, parsed.fingerprint);
      if (clash === "key") throw new InvalidArgumentError(DEPLOYED_ALREADY);
      if (clash === "name") throw new InvalidArgumentError(TITLE_USED);
      try {
        return await sshKeys.insertDeployKey(trx, {
          repoId: repo.id,
          name: title,
          fingerprint: parsed.fingerprint,
          content: parsed.content,
          mode: readOnly ? 1 : 2,
        });
      } catch (error) {
        throw uniqueToInvalid(error, {
          public_key_fingerprint_key: KEY_USED,
          deploy_key_key_repo_key: DEPLOYED_ALREADY,
          deploy_key_repo_name_key: TITLE_USED,
        });
      }
    });
  }

  /** Removes a deploy key from a repository; 404 when it has none of that id. */
  async deleteDeploy(repo: Repository, id: number): Promise<void> {
    const removed = await this.ctx.db
      .transaction()
      .execute((trx) => sshKeys.deleteDeployKey(trx, repo.id, id));
    if (!removed)
      throw new NotFoundError(`deploy key does not exist [id: ${id}, key_id: 0, repo_id: ${repo.id}]`);
  }
}

/** A unique violation raced past the checks: the same 422 the check would have given. */
function uniqueToInvalid(error: unknown, messages: Readonly<Record<string, string>>): unknown {
  for (const [constraint, message] of Object.entries(messages)) {
    if (isUniqueViolation(error, constraint)) return new InvalidArgumentError(message);
  }
  return error;
}
