import {
  AlreadyExistsError,
  ConflictError,
  InvalidArgumentError,
  NotFoundError,
  offsetOf,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type ProtectedBranch,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  type BranchInfo,
  createBranch,
  deleteBranch,
  findBranchRule,
  getBranch,
  isReadableRef,
  isValidBranchName,
  isValidRefName,
  listRefs,
  refPage,
  ZERO_SHA,
} from "@kiln/git";
import type { RepoPermission } from "../access/repo-permission.js";
import type { CommitVerification, CommitVerifier } from "../keys/commit-verifier.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import type { UserService } from "../users/user-service.js";
import { assertNotArchived, type BranchProtectionService } from "./branch-protection-service.js";
import { type CommitUsers, commitUsers } from "./commit-users.js";
import { mayMerge, mayPush } from "./protection-rules.js";

/** A branch as the API shows it to one viewer: its head, its rule, and what the viewer may do. */
export interface BranchView {
  readonly branch: BranchInfo;
  readonly rule?: ProtectedBranch;
  readonly userCanPush: boolean;
  readonly userCanMerge: boolean;
  /** Accounts of the head commit's author and committer. */
  readonly users: CommitUsers;
  /** The head commit's signature check (absent when nothing checks signatures). */
  readonly verification?: CommitVerification;
}

/** Where a new branch starts (Forgejo's CreateBranchRepoOption). */
export interface CreateBranchInput {
  readonly name: string;
  /** An existing branch (404 when it is not one). */
  readonly oldBranchName?: string;
  /** A branch, tag or commit; wins over `oldBranchName`. */
  readonly oldRefName?: string;
}

const emptyRepository = () => new NotFoundError("Git Repository is empty.");

/**
 * Forgejo's `GitRefName` binding of CreateBranchRepoOption, answered before anything else is
 * looked at: the new name as `git branch` would accept it (so never `HEAD` or `-x`), the
 * sources as ref names git's format allows. Its message names the Go fields, as Forgejo's does.
 */
function checkCreateInput(input: CreateBranchInput): void {
  const bad = (field: string) => new InvalidArgumentError(`[${field}]: GitRefName`);
  if (!isValidBranchName(input.name)) throw bad("BranchName");
  if (input.oldBranchName && !isValidRefName(input.oldBranchName)) throw bad("OldBranchName");
  if (input.oldRefName && !isValidRefName(input.oldRefName)) throw bad("OldRefName");
}

/**
 * The repository as a request sees it: the viewer (null when anonymous) and, when the access
 * module already resolved them, the owner and the viewer's permission (else they are looked up).
 */
export interface ViewerAccess {
  readonly repo: Repository;
  readonly viewer: User | null;
  readonly owner?: User;
  readonly permission?: RepoPermission;
}

/** Branches (Forgejo's branch.go): listing with protection facts, creation and deletion with the UI's checks. */
export class BranchService {
  constructor(
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly users: UserService,
    private readonly protections: BranchProtectionService,
    private readonly verifier?: CommitVerifier,
  ) {}

  /**
   * One page of branches, newest head commit first, then by name, as `access` (the request's
   * repository, owner, viewer and permission) sees them. git sorts the refs; only the page's
   * commits are read, however many branches there are. The rules come from one query and the
   * commits' accounts from another, whatever the page size.
   */
  async list(access: ViewerAccess, page: PageRequest): Promise<Paged<BranchView>> {
    const { repo } = access;
    if (repo.isEmpty) return { items: [], total: 0 };
    const git = await this.repos.git(repo);
    const { names, total } = await withGitErrors(() =>
      refPage(git, {
        prefix: "refs/heads/",
        sort: ["-committerdate", "refname"],
        start: offsetOf(page),
        count: page.limit,
      }),
    );
    const slice = (
      await Promise.all(
        names.map((ref) =>
          // A branch deleted since git listed it is left out.
          withGitErrors(() => getBranch(git, ref.slice("refs/heads/".length))).catch((error: unknown) => {
            if ((error as { kind?: string }).kind === "not_found") return undefined;
            throw error;
          }),
        ),
      )
    ).filter((branch): branch is BranchInfo => branch !== undefined);
    return { items: await this.views(access, slice), total };
  }

  /** One branch (names may contain slashes) as `access` sees it; 404 when it does not exist. */
  async get(access: ViewerAccess, name: string): Promise<BranchView> {
    const git = await this.repos.git(access.repo);
    const branch = await withGitErrors(() => getBranch(git, name), { empty_repository: emptyRepository });
    const [view] = await this.views(access, [branch]);
    return view as BranchView;
  }

  /**
   * Creates a branch from `oldRefName`, `oldBranchName` or the default branch. 422 for a name
   * git refuses, 404 on an empty repository or a missing source, 409 when the name is taken by
   * a branch or tag or clashes with one (`a` and `a/b`), 403 on a mirror.
   */
  async create(repo: Repository, doer: User, input: CreateBranchInput): Promise<BranchView> {
    assertNotArchived(repo);
    checkCreateInput(input);
    if (repo.isEmpty) throw emptyRepository();
    if (repo.isMirror) throw new PermissionDeniedError("Git Repository is a mirror.");
    const git = await this.repos.git(repo);
    let from: string = `refs/heads/${repo.defaultBranch}`;
    if (input.oldRefName) from = input.oldRefName;
    else if (input.oldBranchName) from = `refs/heads/${input.oldBranchName}`;
    if (input.oldBranchName && !input.oldRefName) {
      await withGitErrors(() => getBranch(git, input.oldBranchName as string), {
        not_found: () => new NotFoundError("The old branch does not exist"),
      });
    }
    await this.checkName(repo, input.name);
    const branch = await this.refs.move(repo, doer.id, {
      move: (beforeMove) =>
        withGitErrors(() => createBranch(git, { name: input.name, from, beforeMove }), {
          not_found: () => new NotFoundError("The old branch does not exist"),
          empty_repository: emptyRepository,
          already_exists: () => new AlreadyExistsError("The branch already exists."),
          conflict: () => new AlreadyExistsError("The branch already exists."),
        }),
      updatesOf: (made) => [{ ref: `refs/heads/${input.name}`, oldSha: ZERO_SHA, newSha: made.commit.sha }],
    });
    const [view] = await this.views({ repo, viewer: doer }, [branch]);
    return view as BranchView;
  }

  /**
   * Deletes a branch with the UI's checks (Forgejo's DeleteBranch): 422 for a name no branch can
   * have (git's ref format: `a..b`, `../x`; names git only refuses to create, such as `HEAD`,
   * may be deleted), not on an empty repository (404) or a mirror (403), never the default
   * branch or a protected branch (403); 404 when there is no such branch.
   */
  async delete(repo: Repository, name: string, doer: User): Promise<void> {
    assertNotArchived(repo);
    if (!isReadableRef(`refs/heads/${name}`)) {
      throw new InvalidArgumentError(`branch name is not valid [name: ${name}]`);
    }
    if (repo.isEmpty) throw emptyRepository();
    if (repo.isMirror) throw new PermissionDeniedError("Git Repository is a mirror.");
    if (name === repo.defaultBranch) throw new PermissionDeniedError("can not delete default branch");
    if (await this.protections.ruleFor(repo, name)) throw new PermissionDeniedError("branch protected");
    const git = await this.repos.git(repo);
    await this.refs.move(repo, doer.id, {
      move: (beforeMove) =>
        withGitErrors(() => deleteBranch(git, name, beforeMove), {
          default_branch: () => new PermissionDeniedError("can not delete default branch"),
        }),
      updatesOf: (sha) => [{ ref: `refs/heads/${name}`, oldSha: sha, newSha: ZERO_SHA }],
    });
  }

  /** Forgejo's checkBranchName: the name must not be a branch or tag, nor nest with a branch. */
  private async checkName(repo: Repository, name: string): Promise<void> {
    const git = await this.repos.git(repo);
    for (const ref of await withGitErrors(() => listRefs(git, "refs/"))) {
      if (ref.ref === `refs/heads/${name}`) throw new AlreadyExistsError("The branch already exists.");
      if (ref.ref === `refs/tags/${name}`) {
        throw new ConflictError("The branch with the same tag already exists.");
      }
      if (!ref.ref.startsWith("refs/heads/")) continue;
      const other = ref.ref.slice("refs/heads/".length);
      if (other.startsWith(`${name}/`) || name.startsWith(`${other}/`)) {
        throw new ConflictError("The branch with the same name already exists.");
      }
    }
  }

  /** The branches with their effective rules, what the viewer may do to them, and their commits' accounts. */
  private async views(access: ViewerAccess, branches: readonly BranchInfo[]): Promise<BranchView[]> {
    const { repo, viewer } = access;
    const rules = await this.protections.listForDisplay(repo);
    const known =
      access.owner && access.permission ? { owner: access.owner, permission: access.permission } : undefined;
    const facts = viewer ? await this.protections.pusherFacts(repo, viewer, known, rules) : undefined;
    const users = await commitUsers(
      this.users,
      branches.flatMap((branch) => [branch.commit.author.email, branch.commit.committer.email]),
    );
    const canWrite = facts?.canWriteCode ?? false;
    const verifications =
      this.verifier && branches.length > 0
        ? await this.verifier.verify(
            (await this.repos.git(repo)).gitdir,
            branches.map((b) => b.commit),
          )
        : undefined;
    return branches.map((branch) => {
      const verification = verifications?.get(branch.commit.sha);
      const rule = findBranchRule(rules, branch.name);
      return {
        branch,
        ...(rule ? { rule } : {}),
        userCanPush: facts ? (rule ? mayPush(rule.settings, facts) : canWrite) : false,
        userCanMerge: facts ? (rule ? mayMerge(rule.settings, facts) : canWrite) : false,
        users,
        ...(verification ? { verification } : {}),
      };
    });
  }
}
