import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import {
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import { buildFromTemplate, isValidRefName, templateVariables } from "@kiln/git";
import { repositories, templateCopies, topics } from "@kiln/storage";
import { mayGenerateFor } from "../access/owner-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import { administersRepo } from "../access/repo-rules.js";
import type { ServiceContext } from "../context.js";
import { userSignature } from "../git/commit-identity.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { copyLfs } from "./fork-service.js";
import { withGitErrors } from "./git-errors.js";
import { checkRepoName } from "./repo-names.js";
import type { RepoService } from "./repo-service.js";

/** What a repository generated from a template takes and copies (Forgejo's GenerateRepoOption). */
export interface GenerateRepoInput {
  readonly name: string;
  readonly description?: string;
  readonly private?: boolean;
  readonly defaultBranch?: string;
  readonly gitContent?: boolean;
  readonly topics?: boolean;
  readonly gitHooks?: boolean;
  readonly webhooks?: boolean;
  readonly avatar?: boolean;
  readonly labels?: boolean;
  readonly protectedBranch?: boolean;
}

/**
 * Repositories generated from templates (Forgejo's services/repository/generate.go and
 * template.go): the template's default branch as one new commit with its variables expanded, and
 * the selected settings copied, in the transaction that records the new repository.
 */
export class GenerateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly ledger: QuotaLedger,
    private readonly permissions: PermissionService,
  ) {}

  /**
   * Whether `doer` may generate a repository for `owner` (asked before quota, as Forgejo): another
   * user's namespace only for site admins, an organization only where the doer may create.
   */
  async checkTarget(doer: User, owner: User): Promise<void> {
    if (!mayGenerateFor(doer, owner)) {
      throw new PermissionDeniedError("Only admin can generate repository for other user.");
    }
    await this.repos.checkMayCreate(doer, owner);
  }

  /**
   * Generates `owner/name` from `template` for `doer`. Forgejo's answers: 422 for a repository
   * that is not a template or when nothing is selected, 403 for another user's namespace (unless
   * admin) or an organization the doer may not create in, 409 for a taken name. Webhooks are
   * copied only for an admin of the template (their URLs may carry secrets, and copies would send
   * the doer's events to the template owner's endpoints); for anyone else they are left out.
   */
  async generate(
    doer: User,
    template: Repository,
    owner: User,
    input: GenerateRepoInput,
  ): Promise<Repository> {
    if (!template.isTemplate) throw new InvalidArgumentError("this is not a template repo");
    const { gitContent, gitHooks, webhooks, avatar, labels, protectedBranch } = input;
    if (!(gitContent || input.topics || gitHooks || webhooks || avatar || labels || protectedBranch)) {
      throw new InvalidArgumentError("must select at least one template item");
    }
    await this.checkTarget(doer, owner);
    checkRepoName(input.name);
    const copyWebhooks = webhooks === true && (await this.administers(doer, template));
    const copyContent = gitContent === true && !template.isEmpty;
    const branch = input.defaultBranch || (copyContent ? template.defaultBranch : "main");
    if (!isValidRefName(`refs/heads/${branch}`))
      throw new InvalidArgumentError(`invalid default branch name: ${branch}`);
    const description = input.description ?? "";
    const root = this.ctx.settings.server.rootUrl;
    const created = await this.repos.createWith(
      owner,
      input.name,
      {
        isPrivate: input.private ?? false,
        description,
        defaultBranch: branch,
        templateId: template.id,
        creatorId: doer.id,
        withRow: async (trx, row) => {
          if (!(await repositories.lockRepository(trx, template.id))) {
            throw new NotFoundError("the template repository was deleted");
          }
          if (copyContent) await copyLfs(trx, this.ledger, template.id, row);
          if (input.topics && template.topics.length > 0)
            await topics.setRepoTopics(trx, row.id, template.topics);
          if (labels) await templateCopies.copyLabels(trx, template.id, row.id);
          if (copyWebhooks) await templateCopies.copyWebhooks(trx, template.id, row.id);
          if (protectedBranch) await templateCopies.copyProtectedBranches(trx, template.id, row.id);
          if (avatar && template.avatar) {
            const hash = createHash("md5").update(`repo-${row.id}-${template.avatar}`).digest("hex");
            await templateCopies.copyAvatar(trx, template.id, row.id, hash);
          }
        },
      },
      async () => {
        if (!copyContent) {
          await withGitErrors(() =>
            this.repos.store.create(owner.name, input.name, { defaultBranch: branch }),
          );
          return;
        }
        const source = await this.repos.git(template);
        const variables = templateVariables({
          repo: {
            owner: owner.name,
            name: input.name,
            description,
            link: `/${owner.name}/${input.name}`,
            httpsUrl: `${root}${owner.name}/${input.name}.git`,
          },
          template: {
            owner: template.ownerName,
            name: template.name,
            description: template.description,
            link: `/${template.ownerName}/${template.name}`,
            httpsUrl: `${root}${template.ownerName}/${template.name}.git`,
          },
          now: new Date(),
        });
        await withGitErrors(async () => {
          const dir = await buildFromTemplate(this.repos.store, source, {
            branch,
            templateBranch: template.defaultBranch,
            variables,
            // The doer's address only unless they keep it private (Forgejo's NewGitSig).
            author: userSignature(doer, this.ctx.settings),
          });
          await this.repos.store.adopt(dir, owner.name, input.name).catch(async (err: unknown) => {
            await rm(dir, { recursive: true, force: true });
            throw err;
          });
        });
      },
    );
    return (await repositories.findRepositoryById(this.ctx.db, created.id)) ?? created;
  }

  /** Whether `doer` administers `template` (a site admin, its owner, or a repository admin of it). */
  private async administers(doer: User, template: Repository): Promise<boolean> {
    return administersRepo({
      permission: await this.permissions.forRepository(doer, template),
      viewer: doer,
    });
  }
}
