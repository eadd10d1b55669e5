import { NotFoundError, type Repository } from "@kiln/domain";
import {
  type BlameResult,
  blame,
  LFS_POINTER_MAX_SIZE,
  parseLfsPointer,
  refPage,
  splitRefFromPath,
} from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import type { RefKind } from "./ref-kind.js";

/** A ref named at the head of a path (`/src/branch/feature/x/docs/a.md`), and the path after it. */
export interface RefPath {
  readonly kind: RefKind;
  /** The branch or tag name, or the (possibly short) commit sha as given. */
  readonly name: string;
  /** The path inside the tree, without leading or trailing `/` ("" for the root). */
  readonly path: string;
  /** What git resolves: `refs/heads/<name>`, `refs/tags/<name>`, or the sha as given. */
  readonly fullRef: string;
}

/** A found ref with the full name git resolves, so a tag never stands in for a same-named branch. */
function found(kind: RefKind, name: string, path: string): RefPath {
  const fullRef = kind === "branch" ? `refs/heads/${name}` : kind === "tag" ? `refs/tags/${name}` : name;
  return { kind, name, path, fullRef };
}

/** An LFS pointer file and whether the store holds the object it names for this repository. */
export interface LfsPointerView {
  readonly oid: string;
  readonly size: number;
  /** The repository references the object with this size and the store holds it (`/media` serves it). */
  readonly stored: boolean;
}

/** A commit given in a path: 4 to 64 hex digits (SHA-1 or SHA-256) as its first segment (Forgejo's RepoRefCommit). */
const COMMIT_SEGMENT = /^[0-9a-f]{4,64}$/;
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** At most this much of `git blame`'s output is read (a 1 MiB file's blame is about 2 MiB). */
const MAX_BLAME_OUTPUT = 16 * 1024 * 1024;
/** A blame that takes longer is stopped (deep histories); the page then says so. */
const BLAME_TIMEOUT_MS = 15_000;
/** A ref name plus path longer than this is refused before any lookup. */
const MAX_REF_PATH = 4096;

function trimSlashes(path: string): string {
  return path.split("/").filter(Boolean).join("/");
}

/**
 * What the web's code pages need beyond the contents API: which ref a `/src/{kind}/{ref+path}`
 * names (branch names may contain `/`), the branch and tag names of a ref selector, and what an
 * LFS pointer stands for.
 */
export class SourceService {
  constructor(private readonly repos: RepoService) {}

  /**
   * Splits `rest` into a ref of `kind` and a path, as Forgejo's getRefNameFromPath: the shortest
   * leading part that names an existing branch (or tag); for a commit, a first segment of 4 to 40
   * hex digits. Without `kind` (the legacy `/src/{ref+path}`), a branch, else a tag, else a full
   * sha. 404 when nothing matches or the repository is empty.
   */
  async resolve(repo: Repository, kind: RefKind | undefined, rest: string): Promise<RefPath> {
    if (repo.isEmpty || rest.length > MAX_REF_PATH) throw new NotFoundError();
    const clean = trimSlashes(rest);
    if (kind === "commit") {
      const [first = "", ...tail] = clean.split("/");
      if (!COMMIT_SEGMENT.test(first)) throw new NotFoundError(`commit ${first} does not exist`);
      return found(kind, first, tail.join("/"));
    }
    const git = await this.repos.git(repo);
    for (const candidate of kind ? [kind] : (["branch", "tag"] as const)) {
      const split = await withGitErrors(() => splitRefFromPath(git, clean, [candidate]));
      if (split.ref !== undefined) return found(candidate, split.ref, trimSlashes(split.path));
    }
    const [first = "", ...tail] = clean.split("/");
    if (!kind && FULL_SHA.test(first)) return found("commit", first, tail.join("/"));
    throw new NotFoundError(`no ${kind ?? "ref"} at the head of ${clean}`);
  }

  /**
   * Who last changed each line of the file at `at` (Forgejo's blame page), bounded in output and
   * time; 404 for a path that is no file there.
   */
  async blame(repo: Repository, at: RefPath): Promise<BlameResult> {
    if (repo.isEmpty) throw new NotFoundError();
    const git = await this.repos.git(repo);
    return withGitErrors(() =>
      blame(git, at.fullRef, at.path, {
        maxOutput: MAX_BLAME_OUTPUT,
        signal: AbortSignal.timeout(BLAME_TIMEOUT_MS),
      }),
    );
  }

  /** The first `limit` branch or tag names, alphabetically, and how many there are. */
  async refNames(
    repo: Repository,
    kind: "branch" | "tag",
    limit: number,
  ): Promise<{ readonly names: readonly string[]; readonly total: number }> {
    if (repo.isEmpty) return { names: [], total: 0 };
    const git = await this.repos.git(repo);
    const prefix = kind === "branch" ? "refs/heads/" : "refs/tags/";
    const page = await withGitErrors(() =>
      refPage(git, { prefix, sort: ["refname"], start: 0, count: limit }),
    );
    return { names: page.names.map((name) => name.slice(prefix.length)), total: page.total };
  }

  /** What `bytes` (a file's content) points to when it is an LFS pointer; undefined otherwise. */
  async lfsPointer(repo: Repository, bytes: Uint8Array): Promise<LfsPointerView | undefined> {
    if (bytes.length > LFS_POINTER_MAX_SIZE) return undefined;
    const pointer = parseLfsPointer(bytes);
    if (!pointer) return undefined;
    const referenced = await this.repos.lfsObjectsOf(repo, [pointer.oid]);
    const stored =
      referenced.get(pointer.oid) === pointer.size &&
      (await this.repos.lfs.sizeOf(pointer.oid)) === pointer.size;
    return { oid: pointer.oid, size: pointer.size, stored };
  }
}
