import { isKilnError, NotFoundError, type PullRequest, type Repository } from "@kiln/domain";
import { type Db, forks, pulls, repositories } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import type { Actor } from "../access/actor.js";
import { writesCode } from "../access/pull-rules.js";

/** A head as a client names it: `branch`, `owner:branch` or `owner/repo:branch`. */
export interface HeadName {
  readonly owner?: string;
  readonly repo?: string;
  readonly branch: string;
}

/** Splits `owner:branch` or `owner/repo:branch` (Forgejo's parseCompareInfo); 404 for more colons. */
export function parseHead(head: string): HeadName {
  const parts = head.split(":");
  if (parts.length === 1) return { branch: head };
  if (parts.length > 2) {
    throw new NotFoundError(
      `the head part of {basehead} ${head} must contain zero or one colon (:) but contains ${parts.length - 1}`,
    );
  }
  const [owner = "", branch = ""] = parts;
  const slash = owner.indexOf("/");
  return slash < 0
    ? { owner, branch }
    : { owner: owner.slice(0, slash), repo: owner.slice(slash + 1), branch };
}

/**
 * The repository a head names for the caller of `base` (Forgejo's parseCompareInfo): `base`
 * itself, the fork of `base` that the named owner has, or `base`'s parent when that owner owns it
 * (`owner/repo:` names one of those two by name, a Kiln extension). The caller must be able to read
 * its code. A fork the caller may not read answers as an owner without one, and an owner the
 * caller may not see as one that does not exist, so nothing hidden shows.
 */
export async function resolveHeadRepo(
  db: Db,
  access: AccessService,
  repoAccess: RepoAccess,
  name: Pick<HeadName, "owner" | "repo">,
): Promise<RepoAccess> {
  const base = repoAccess.repo;
  const sameOwner = name.owner === undefined || name.owner.toLowerCase() === base.ownerName.toLowerCase();
  if (sameOwner && (name.repo === undefined || name.repo.toLowerCase() === base.lowerName)) return repoAccess;
  const full = `${base.ownerName}/${base.name}`;
  const missing = () =>
    new NotFoundError(
      `${name.owner} does not have a fork of ${full} and ${full} is not a fork of a repository from ${name.owner}`,
    );
  // An owner the caller may not see reads as one that does not exist.
  const owner = await access.account(repoAccess.actor, name.owner ?? "").catch((err: unknown) => {
    throw isHidden(err) ? new NotFoundError(`the owner ${name.owner} does not exist`) : err;
  });
  const candidates: Repository[] = [];
  const fork = await forks.findUserFork(db, base.id, owner.id);
  if (fork) candidates.push(fork);
  const parent =
    base.isFork && base.forkId !== null ? await repositories.findRepositoryById(db, base.forkId) : undefined;
  if (parent && parent.ownerId === owner.id) candidates.push(parent);
  const found = candidates.find(
    (repo) => name.repo === undefined || repo.lowerName === name.repo.toLowerCase(),
  );
  if (!found) throw missing();
  return access.repoById(repoAccess.actor, found.id, { read: "repo.code" }).catch((err: unknown) => {
    throw isHidden(err) ? missing() : err;
  });
}

/**
 * The head repository of a pull request as the caller of its base sees it (the base's own access
 * for a head in the base); undefined when it is gone or the caller may not read its code.
 */
export async function headAccessOf(
  access: AccessService,
  repoAccess: RepoAccess,
  pull: PullRequest,
): Promise<RepoAccess | undefined> {
  if (pull.headRepoId === repoAccess.repo.id) return repoAccess;
  if (pull.headRepoId === null) return undefined;
  return access.repoById(repoAccess.actor, pull.headRepoId, { read: "repo.code" }).catch((err: unknown) => {
    if (isHidden(err)) return undefined;
    throw err;
  });
}

/**
 * The branches of `repo` that `actor` may push to as a maintainer (Forgejo's
 * CanMaintainerWriteToBranch): heads of open pull requests into other repositories whose poster
 * allows maintainers' edits, into a repository where the actor may write code.
 */
export async function maintainerBranches(
  db: Db,
  access: AccessService,
  actor: Actor,
  repo: Repository,
): Promise<string[]> {
  if (!actor.user) return [];
  const writes = new Map<number, boolean>();
  const branches = new Set<string>();
  for (const pull of await pulls.openPullsFromHead(db, repo.id, { allowingEdits: true, limit: 100 })) {
    if (!writes.has(pull.baseRepoId)) {
      const base = await access.repoById(actor, pull.baseRepoId).catch((err: unknown) => {
        if (isHidden(err)) return undefined;
        throw err;
      });
      writes.set(pull.baseRepoId, base !== undefined && writesCode(base));
    }
    if (writes.get(pull.baseRepoId)) branches.add(pull.headBranch);
  }
  return [...branches];
}

function isHidden(err: unknown): boolean {
  return isKilnError(err) && (err.kind === "not_found" || err.kind === "permission_denied");
}
