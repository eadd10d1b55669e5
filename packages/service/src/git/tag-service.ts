import {
  ConflictError,
  InvalidArgumentError,
  NotFoundError,
  offsetOf,
  type Paged,
  type PageRequest,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  createTag,
  deleteTag,
  getTag,
  isReadableRef,
  isValidTagName,
  refPage,
  type TagInfo,
  ZERO_SHA,
} from "@kiln/git";
import { releases } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertNotArchived } from "./branch-protection-service.js";
import { userSignature } from "./commit-identity.js";
import type { TagProtectionService } from "./tag-protection-service.js";

/** What creating a tag takes (Forgejo's CreateTagOption): a message makes it annotated. */
export interface CreateTagInput {
  readonly name: string;
  /** Branch, tag or sha; the default branch when absent. */
  readonly target?: string;
  readonly message?: string;
}

/** Tags (Forgejo's tag.go). */
export class TagService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly protections?: TagProtectionService,
  ) {}

  /**
   * One page of tags, newest first (Forgejo sorts by creation date: the tagger's for annotated
   * tags, the commit's for others), then by name. git sorts the refs; only the page's tags are
   * read, however many there are.
   */
  async list(repo: Repository, page: PageRequest): Promise<Paged<TagInfo>> {
    if (repo.isEmpty) return { items: [], total: 0 };
    const git = await this.repos.git(repo);
    const { names, total } = await withGitErrors(() =>
      refPage(git, {
        prefix: "refs/tags/",
        sort: ["-creatordate", "refname"],
        start: offsetOf(page),
        count: page.limit,
      }),
    );
    const tags = await Promise.all(
      names.map((ref) =>
        // A tag deleted since git listed it is left out.
        withGitErrors(() => getTag(git, ref.slice("refs/tags/".length))).catch((error: unknown) => {
          if ((error as { kind?: string }).kind === "not_found") return undefined;
          throw error;
        }),
      ),
    );
    return { items: tags.filter((tag): tag is TagInfo => tag !== undefined), total };
  }

  /** One tag by name (names may contain slashes); 404 when it does not exist. */
  async get(repo: Repository, name: string): Promise<TagInfo> {
    const git = await this.repos.git(repo);
    return withGitErrors(() => getTag(git, name));
  }

  /**
   * Creates a tag, annotated by `doer` when there is a message; 422 for a name `git tag`
   * refuses (`HEAD`, `-x`, `a..b`, … with Forgejo's ErrInvalidTagName message), 422 for a tag
   * a tag protection rule keeps from `doer`, 404 for a missing target, 409 when taken.
   */
  async create(repo: Repository, doer: User, input: CreateTagInput): Promise<TagInfo> {
    assertNotArchived(repo);
    if (!isValidTagName(input.name)) {
      throw new InvalidArgumentError(`release tag name is not valid [tag_name: ${input.name}]`);
    }
    await this.protections?.assertMayControl(
      repo,
      doer,
      input.name,
      "user not allowed to create protected tag",
    );
    const git = await this.repos.git(repo);
    const tag = await this.refs.move(repo, doer.id, {
      move: (beforeMove) =>
        withGitErrors(
          () =>
            createTag(git, {
              name: input.name,
              target: input.target || repo.defaultBranch,
              ...(input.message
                ? { message: input.message, tagger: userSignature(doer, this.ctx.settings) }
                : {}),
              beforeMove,
            }),
          {
            not_found: (m) => new NotFoundError(`target not found: ${m}`),
            empty_repository: () => new NotFoundError("target not found"),
          },
        ),
      updatesOf: (made) => [{ ref: `refs/tags/${made.name}`, oldSha: ZERO_SHA, newSha: made.sha }],
    });
    return tag;
  }

  /**
   * Deletes a tag: 422 for a name no tag can have (git's ref format; names git only refuses to
   * create, such as `HEAD`, may be deleted), 404 when it does not exist, 409 when a release
   * names it, 422 when a tag protection rule keeps it from `doer`.
   */
  async delete(repo: Repository, name: string, doer: User): Promise<void> {
    assertNotArchived(repo);
    if (!isReadableRef(`refs/tags/${name}`)) {
      throw new InvalidArgumentError(`tag name is not valid [name: ${name}]`);
    }
    // Forgejo's DeleteTag: a release's tag goes only with the release (DELETE …/releases/…).
    if (await releases.findReleaseByTag(this.ctx.db, repo.id, name))
      throw new ConflictError("a tag attached to a release cannot be deleted directly");
    await this.protections?.assertMayControl(repo, doer, name, "user not allowed to delete protected tag");
    const git = await this.repos.git(repo);
    await this.refs.move(repo, doer.id, {
      move: (beforeMove) => withGitErrors(() => deleteTag(git, name, beforeMove)),
      updatesOf: (sha) => [{ ref: `refs/tags/${name}`, oldSha: sha, newSha: ZERO_SHA }],
    });
  }
}
