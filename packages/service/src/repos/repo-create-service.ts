import {
  AlreadyExistsError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import { isValidRefName, type RepoStore } from "@kiln/git";
import { type Db, isUniqueViolation, labels, repoMoves, repositories } from "@kiln/storage";
import { bypassesRepoLimit, mayCreateRepoFor } from "../access/owner-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { gitignoreTemplates } from "../templates/gitignore-templates.js";
import { type LabelTemplateEntry, labelTemplates } from "../templates/label-templates.js";
import { fillLicense, licenseTemplates } from "../templates/license-templates.js";
import { withGitErrors } from "./git-errors.js";
import { checkRepoName } from "./repo-names.js";
import type { RepoSizeService } from "./repo-size-service.js";

/** What creating a repository takes (`CreateRepoOption`). */
export interface CreateRepoInput {
  readonly name: string;
  readonly description?: string;
  readonly private?: boolean;
  readonly autoInit?: boolean;
  readonly defaultBranch?: string;
  readonly template?: boolean;
  readonly readme?: string;
  /** A license of the catalogue (SPDX identifier) committed as `LICENSE` with `autoInit`. */
  readonly license?: string;
  /** `.gitignore` templates, comma-separated, joined into the first commit's `.gitignore` with `autoInit`. */
  readonly gitignores?: string;
  /** A label set (`/label/templates`) whose labels the repository starts with. */
  readonly issueLabels?: string;
}

/** The row values of a new repository besides its owner and name. */
export interface NewRepoValues {
  readonly isPrivate: boolean;
  readonly isTemplate?: boolean;
  readonly description?: string;
  readonly defaultBranch: string;
  readonly isMirror?: boolean;
  readonly originalUrl?: string;
  /** For a fork: the repository it forks (the row gets `is_fork` and `fork_id`). */
  readonly forkId?: number;
  /** For a repository generated from a template: the template. */
  readonly templateId?: number;
  /** Who creates it: the `repository` event `created` is recorded for them with the row. */
  readonly creatorId?: number;
  /** Rows that belong with the new repository (a mirror's), written in the transaction that inserts it. */
  readonly withRow?: (trx: Db, row: Repository) => Promise<void>;
}

/** The error of a name already taken in the owner's namespace (409, Forgejo's message). */
export function repoExists(): AlreadyExistsError {
  return new AlreadyExistsError("The repository with the same name already exists.");
}

/**
 * Creating repositories: who may create where, and building one on disk before recording it in a
 * short transaction, removing the directory if that fails.
 */
export class RepoCreateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly ledger: QuotaLedger,
    private readonly store: RepoStore,
    private readonly sizes: RepoSizeService,
  ) {}

  /**
   * Creates a repository for `owner` (the doer, or an organization in which the doer may create
   * repositories), honouring `[repository] MAX_CREATION_LIMIT` and the owner's own limit.
   */
  async create(doer: User, owner: User, input: CreateRepoInput): Promise<Repository> {
    await this.checkMayCreate(doer, owner);
    checkRepoName(input.name);
    const defaultBranch = input.defaultBranch || "main";
    if (!isValidRefName(`refs/heads/${defaultBranch}`))
      throw new InvalidArgumentError(`invalid default branch name: ${defaultBranch}`);
    const license = input.autoInit && input.license ? await licenseFile(input.license, owner) : undefined;
    const gitignore = input.autoInit && input.gitignores ? await gitignoreFile(input.gitignores) : undefined;
    const files = [...(license ? [license] : []), ...(gitignore ? [gitignore] : [])];
    const labels = input.issueLabels ? labelSet(input.issueLabels) : undefined;
    return this.createWith(
      owner,
      input.name,
      {
        isPrivate: input.private ?? false,
        isTemplate: input.template ?? false,
        description: input.description ?? "",
        defaultBranch,
        creatorId: doer.id,
        ...(labels ? { withRow: (trx, row) => createLabels(trx, row, labels) } : {}),
      },
      async () => {
        await withGitErrors(() =>
          this.store.create(owner.name, input.name, {
            defaultBranch,
            ...(input.autoInit
              ? {
                  autoInit: {
                    author: {
                      name: doer.fullName || doer.name,
                      email: doer.email || `${doer.lowerName}@noreply.kiln`,
                    },
                    description: input.description ?? "",
                    ...(input.readme ? { readme: input.readme } : {}),
                    ...(files.length > 0 ? { files } : {}),
                  },
                }
              : {}),
          }),
        );
      },
    );
  }

  /**
   * Builds the repository on disk with `makeOnDisk` (which may take long: a clone), measures it,
   * then inserts the row and records its usage in one short transaction; if that fails, the
   * directory is removed. No transaction is held during disk or network work: on the embedded
   * database that would stall every other request (and deadlock a migration from Kiln itself).
   */
  async createWith(
    owner: User,
    name: string,
    values: NewRepoValues,
    makeOnDisk: () => Promise<void>,
  ): Promise<Repository> {
    if (await repositories.findRepositoryByName(this.ctx.db, owner.id, name)) throw repoExists();
    if (await this.store.exists(owner.name, name)) {
      throw new AlreadyExistsError(
        `Files already exist for this repository (${owner.name}/${name}): adopt or delete them first.`,
      );
    }
    await makeOnDisk();
    try {
      const disk = await this.sizes.measure(owner.name, name);
      return await this.ctx.db.transaction().execute(async (trx) => {
        let row: Repository;
        try {
          row = await repositories.insertRepository(trx, {
            ownerId: owner.id,
            ownerName: owner.name,
            name,
            lowerName: name.toLowerCase(),
            description: values.description ?? "",
            isPrivate: values.isPrivate,
            isTemplate: values.isTemplate ?? false,
            isMirror: values.isMirror ?? false,
            originalUrl: values.originalUrl ?? "",
            ...(values.forkId !== undefined ? { isFork: true, forkId: values.forkId } : {}),
            ...(values.templateId !== undefined ? { templateId: values.templateId } : {}),
            defaultBranch: values.defaultBranch,
            ...disk,
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw repoExists();
          throw err;
        }
        // The directory just made is this repository's: an older removal journalled for the same
        // path (a crash after its directory went) must not take it.
        await repoMoves.forgetDeletions(trx, owner.name, name);
        await this.ledger.recordRepositoryChange(trx, undefined, row);
        await values.withRow?.(trx, row);
        if (values.creatorId !== undefined) {
          await this.ctx.events.record(trx, {
            ...inRepo(row, values.creatorId),
            type: "repository",
            action: "created",
          });
        }
        return row;
      });
    } catch (err) {
      await this.store.delete(owner.name, name).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Whether `doer` may create a repository owned by `owner` (403 otherwise): in their own namespace,
   * in an organization where a team lets them, anywhere for site admins; within the creation limit.
   */
  async checkMayCreate(doer: User, owner: User): Promise<void> {
    if (owner.type === "organization") {
      const standing = await this.permissions.inOrganization(owner, doer);
      if (!mayCreateRepoFor(doer, owner, standing.permission.canCreateRepository)) {
        throw new PermissionDeniedError("Given user is not allowed to create repository in organization.");
      }
    } else if (!mayCreateRepoFor(doer, owner, false)) {
      throw new PermissionDeniedError("Only site admins may create repositories for other users.");
    }
    if (bypassesRepoLimit(doer)) return;
    const limit =
      owner.maxRepoCreation > -1 ? owner.maxRepoCreation : this.ctx.settings.repository.maxCreationLimit;
    if (limit > -1 && (await repositories.countOwnedRepositories(this.ctx.db, owner.id)) >= limit) {
      throw new PermissionDeniedError(`You have already reached your limit of ${limit} repositories.`);
    }
  }
}

/**
 * The `.gitignore` of a new repository from templates named `A,B` (Forgejo's prepareRepoCommit:
 * each under a `# ---> Name` line); InvalidArgumentError (422) for a name not in the catalogue.
 */
async function gitignoreFile(names: string): Promise<{ path: string; content: string }> {
  const wanted = [...new Set(names.split(",").map((n) => n.trim()))].filter((n) => n !== "");
  if (wanted.length > MAX_GITIGNORES)
    throw new InvalidArgumentError(`at most ${MAX_GITIGNORES} gitignore templates`);
  let content = "";
  for (const name of wanted) {
    const template = await gitignoreTemplates.get(name).catch((error: unknown) => {
      if (error instanceof NotFoundError)
        throw new InvalidArgumentError(`invalid gitignore template: ${name}`);
      throw error;
    });
    content += `# ---> ${name}\n${template.source}\n`;
  }
  return { path: ".gitignore", content };
}

/** The most `.gitignore` templates one repository may start with. */
const MAX_GITIGNORES = 20;

/** A label set's labels; InvalidArgumentError (422) for an unknown set. */
function labelSet(name: string): readonly LabelTemplateEntry[] {
  try {
    return labelTemplates.get(name.trim());
  } catch (error) {
    if (error instanceof NotFoundError) throw new InvalidArgumentError(`invalid label template: ${name}`);
    throw error;
  }
}

/** Creates a new repository's labels from a set, in the transaction that inserts its row. */
async function createLabels(trx: Db, row: Repository, set: readonly LabelTemplateEntry[]): Promise<void> {
  for (const label of set) {
    await labels.insertLabel(
      trx,
      { repoId: row.id },
      {
        name: label.name,
        color: label.color,
        description: label.description,
        exclusive: label.exclusive,
        archived: false,
      },
    );
  }
}

/** The `LICENSE` file of a new repository; InvalidArgumentError (422) for a license not in the catalogue. */
async function licenseFile(key: string, owner: User): Promise<{ path: string; content: string }> {
  const template = await licenseTemplates.get(key).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new InvalidArgumentError(`invalid license: ${key}`);
    throw error;
  });
  return {
    path: "LICENSE",
    content: fillLicense(template.body, owner.fullName || owner.name, new Date().getFullYear()),
  };
}
