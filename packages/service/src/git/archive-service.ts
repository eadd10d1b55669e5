import { BadRequestError, NotFoundError, type Repository } from "@kiln/domain";
import { type ArchiveFormat, openArchive, splitArchiveName } from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";

/** A repository archive at a commit, named as Forgejo names the download, its bytes opened on demand. */
export interface ArchiveDownload {
  readonly format: ArchiveFormat;
  readonly commitSha: string;
  /** `<repo>-<ref>.<format>`, slashes of the ref turned into dashes (Forgejo's download name). */
  readonly fileName: string;
  /** Starts git once a slot is free (`signal`: the client left) and streams the archive. */
  open(signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

/** Forgejo's repository archiver (services/repository/archiver), streamed instead of stored. */
export class ArchiveService {
  constructor(private readonly repos: RepoService) {}

  /**
   * The archive `<ref>.zip`, `<ref>.tar.gz` or `<ref>.bundle` of a repository: 400 `unknown
   * format: <name>` for another suffix, 404 `unrecognized repository reference: <ref>` for a ref
   * that names no commit (every ref of an empty repository), as Forgejo answers.
   */
  async archive(repo: Repository, name: string): Promise<ArchiveDownload> {
    const split = splitArchiveName(name);
    if (!split) throw new BadRequestError(`unknown format: ${name}`);
    const { ref, format } = split;
    const unknownRef = () => new NotFoundError(`unrecognized repository reference: ${ref}`);
    if (repo.isEmpty) throw unknownRef();
    const git = await this.repos.git(repo);
    const archive = await withGitErrors(() => openArchive(git, ref, format), {
      not_found: unknownRef,
      empty_repository: unknownRef,
      invalid_argument: unknownRef,
    });
    return {
      format,
      commitSha: archive.commitSha,
      fileName: `${repo.name}-${ref.replaceAll("/", "-")}.${format}`,
      open: (signal) => archive.open(signal),
    };
  }
}
