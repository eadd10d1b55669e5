import { readdir } from "node:fs/promises";
import {
  AlreadyExistsError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
} from "@kiln/domain";
import { compileGlob, listBranches } from "@kiln/git";
import { adminRepos, isUniqueViolation, repoMoves, repositories, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { checkRepoName } from "../repos/repo-names.js";
import type { RepoService } from "../repos/repo-service.js";

/**
 * Repositories on disk with no row (Forgejo's services/repository/adopt.go): listed for site
 * administrators, adopted (a private repository row is created for the existing bare repository,
 * its size counted as its owner's usage) or deleted from disk. Only directories of existing
 * accounts count, as in Forgejo: `<root>/<owner>/<name>.git`.
 */
export class UnadoptedService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly ledger: QuotaLedger,
  ) {}

  /**
   * One page of `owner/name` (lower case, sorted) of unadopted repositories matching `pattern`
   * (Forgejo's: a glob for the owner, optionally `/` and a glob for the name; empty: all).
   */
  async list(pattern: string, page: PageRequest): Promise<Paged<string>> {
    const [ownerGlob = "*", repoGlob = "*"] = pattern ? splitOnce(pattern.toLowerCase()) : [];
    const ownerMatch = globMatcher(ownerGlob);
    const repoMatch = globMatcher(repoGlob);
    const root = this.repos.store.root;
    const found: string[] = [];
    for (const ownerDir of await subdirectories(root)) {
      if (ownerDir.startsWith(".") || !ownerMatch(ownerDir)) continue;
      const names = (await subdirectories(`${root}/${ownerDir}`))
        // A repository's wiki (`<name>.wiki.git`) is part of it, never a repository of its own.
        .filter((d) => d.endsWith(".git") && !d.endsWith(".wiki.git"))
        .map((d) => d.slice(0, -".git".length))
        .filter((name) => name.length > 0 && repoMatch(name));
      if (names.length === 0) continue;
      if (!(await users.findUserByName(this.ctx.db, ownerDir))) continue;
      for (let i = 0; i < names.length; i += 200) {
        const batch = names.slice(i, i + 200).map((name) => ({ owner: ownerDir, name }));
        const existing = await adminRepos.existingRepositoryKeys(this.ctx.db, batch);
        for (const p of batch) if (!existing.has(`${p.owner}/${p.name}`)) found.push(`${p.owner}/${p.name}`);
      }
    }
    found.sort();
    const start = (page.page - 1) * page.limit;
    return { items: found.slice(start, start + page.limit), total: found.length };
  }

  /**
   * Creates the row of the unadopted repository `owner/name`, private as Forgejo adopts, with its
   * default branch (HEAD's, else the first branch) and its size on disk counted against the owner
   * in the same transaction. 404 when the owner is unknown, the row exists or there is no directory.
   */
  async adopt(ownerName: string, name: string, doerId: number): Promise<Repository> {
    const owner = await this.unadoptedOwner(ownerName, name);
    const store = this.repos.store;
    await store.ensureHooks(owner.name, name);
    const branches = await listBranches(await store.open(owner.name, name));
    const gitSize = await store.size(owner.name, name);
    const defaultBranch = (branches.find((b) => b.isDefault) ?? branches[0])?.name ?? "main";
    return this.ctx.db.transaction().execute(async (trx) => {
      // The directory is adopted: no journalled removal of the same path may take it.
      await repoMoves.forgetDeletions(trx, owner.name, name);
      let row: Repository;
      try {
        row = await repositories.insertRepository(trx, {
          ownerId: owner.id,
          ownerName: owner.name,
          name,
          lowerName: name.toLowerCase(),
          isPrivate: true,
          defaultBranch,
          gitSize,
          isEmpty: branches.length === 0,
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new AlreadyExistsError(
            `The repository with the same name already exists [${owner.name}/${name}]`,
          );
        throw err;
      }
      await this.ledger.recordRepositoryChange(trx, undefined, row);
      this.ctx.logger.info({ repo: `${owner.name}/${name}`, doerId }, "adopted repository");
      return row;
    });
  }

  /** Deletes the directory of the unadopted repository `owner/name`; 404 as {@link adopt}. */
  async deleteFiles(ownerName: string, name: string): Promise<void> {
    const owner = await this.unadoptedOwner(ownerName, name);
    await this.repos.store.delete(owner.name, name);
  }

  private async unadoptedOwner(ownerName: string, name: string) {
    checkRepoName(name);
    const owner = await users.findUserByName(this.ctx.db, ownerName);
    if (!owner) throw new NotFoundError(`user does not exist [name: ${ownerName}]`);
    if (await repositories.findRepositoryByName(this.ctx.db, owner.id, name)) throw new NotFoundError();
    if (!(await this.repos.store.exists(owner.name, name))) throw new NotFoundError();
    return owner;
  }
}

function splitOnce(pattern: string): [string, string] {
  const slash = pattern.indexOf("/");
  return slash < 0 ? [pattern, "*"] : [pattern.slice(0, slash), pattern.slice(slash + 1)];
}

async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * A name glob of the unadopted list (gobwas/glob without separators, as Forgejo compiles it) by
 * Kiln's linear matcher; an empty or invalid one filters nothing (Forgejo skips it).
 */
function globMatcher(glob: string): (name: string) => boolean {
  try {
    const compiled = compileGlob(glob || "*");
    return (name) => compiled.matches(name);
  } catch {
    return () => true;
  }
}
