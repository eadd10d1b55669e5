import type { ServiceContext } from "../context.js";
import type { CommitVerifier } from "../keys/commit-verifier.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import type { UserService } from "../users/user-service.js";
import { AnnotatedTagService } from "./annotated-tag-service.js";
import { ArchiveService } from "./archive-service.js";
import type { BranchProtectionService } from "./branch-protection-service.js";
import { BranchRenameService } from "./branch-rename-service.js";
import { BranchService } from "./branch-service.js";
import { CommitDiffService } from "./commit-diff-service.js";
import { CommitService } from "./commit-service.js";
import { CommitStatusService } from "./commit-status-service.js";
import { CompareService, type HeadResolver } from "./compare-service.js";
import { ContentService } from "./content-service.js";
import { EditorconfigService } from "./editorconfig-service.js";
import { FileService } from "./file-service.js";
import { GitHookService } from "./git-hook-service.js";
import { NoteService } from "./note-service.js";
import { GitObjectService } from "./object-service.js";
import { PatchService } from "./patch-service.js";
import { SourceService } from "./source-service.js";
import type { TagProtectionService } from "./tag-protection-service.js";
import { TagService } from "./tag-service.js";

/** The services over a repository's git: commits, contents, files, branches, tags, notes, statuses. */
export interface GitArea {
  readonly commits: CommitService;
  readonly gitObjects: GitObjectService;
  readonly contents: ContentService;
  /** The web's code pages: refs at the head of paths, ref names, LFS pointers. */
  readonly sources: SourceService;
  readonly archives: ArchiveService;
  readonly files: FileService;
  readonly branches: BranchService;
  readonly branchProtections: BranchProtectionService;
  readonly tags: TagService;
  readonly tagProtections: TagProtectionService;
  readonly branchRenames: BranchRenameService;
  readonly gitHooks: GitHookService;
  readonly notes: NoteService;
  readonly annotatedTags: AnnotatedTagService;
  readonly compare: CompareService;
  readonly editorconfig: EditorconfigService;
  readonly patches: PatchService;
  readonly commitStatuses: CommitStatusService;
  readonly commitDiffs: CommitDiffService;
}

/** What the git services are built over. */
export interface GitAreaDeps {
  readonly repos: RepoService;
  readonly users: UserService;
  readonly commitVerifier: CommitVerifier;
  readonly protections: BranchProtectionService;
  readonly tagProtections: TagProtectionService;
  /** The one path that moves refs: file writes, patches, branches, tags and renames go through it. */
  readonly refUpdates: RefUpdates;
  /** Finds the head repository a compare names (`owner:branch`, `owner/repo:branch`). */
  readonly headRepo: HeadResolver;
}

/** Builds the git area, with one CommitService for every service that reads commits. */
export function gitArea(ctx: ServiceContext, deps: GitAreaDeps): GitArea {
  const { repos, users, commitVerifier, protections, tagProtections, refUpdates } = deps;
  const commits = new CommitService(repos, users, commitVerifier);
  const contents = new ContentService(repos);
  return {
    commits,
    gitObjects: new GitObjectService(repos),
    contents,
    sources: new SourceService(repos),
    archives: new ArchiveService(repos),
    files: new FileService(ctx, repos, refUpdates, protections, contents),
    branches: new BranchService(repos, refUpdates, users, protections, commitVerifier),
    branchProtections: protections,
    tags: new TagService(ctx, repos, refUpdates, tagProtections),
    tagProtections,
    branchRenames: new BranchRenameService(repos, refUpdates, protections),
    gitHooks: new GitHookService(),
    notes: new NoteService(ctx, repos, commits),
    annotatedTags: new AnnotatedTagService(repos, commitVerifier),
    compare: new CompareService(repos, commits, deps.headRepo),
    editorconfig: new EditorconfigService(repos),
    patches: new PatchService(ctx, repos, refUpdates, protections),
    commitStatuses: new CommitStatusService(ctx, repos),
    commitDiffs: new CommitDiffService(repos),
  };
}
