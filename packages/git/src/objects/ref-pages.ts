import type { GitRepository } from "../disk/git-repository.js";
import { isReadableRef } from "../util/ref-names.js";
import { runGit } from "../util/run-git.js";
import { refSnapshot } from "./repo-state.js";

/** A surrogate half: names holding one may sort differently by UTF-16 units than by git's bytes. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** A page of ref names and how many refs the listing has. */
export interface RefPage {
  /** Full ref names (`refs/heads/main`) of the page, in the listing's order. */
  readonly names: readonly string[];
  readonly total: number;
}

/**
 * One page of the refs under `prefix` in the order git sorts them (`sort`: for-each-ref keys,
 * the first the primary one), from one `git for-each-ref`: git reads and sorts the refs and
 * whatever they point at, so the caller reads the objects of the page only, not of every ref.
 */
export async function refPage(
  repo: Pick<GitRepository, "gitdir">,
  options: {
    readonly prefix: "refs/heads/" | "refs/tags/";
    readonly sort: readonly string[];
    readonly start: number;
    readonly count: number;
  },
): Promise<RefPage> {
  const start = Math.max(0, options.start);
  const count = Math.max(0, options.count);
  // Sorted by name alone (the ref selector of every code page): the repository's ref snapshot,
  // kept between requests while its directories are unchanged, answers without starting git.
  if (options.sort.length === 1 && options.sort[0] === "refname") {
    const names = (await refSnapshot(repo.gitdir)).names.filter(
      (name) => name.startsWith(options.prefix) && isReadableRef(name),
    );
    if (!names.some((name) => SURROGATE.test(name))) {
      return { names: names.slice(start, start + count), total: names.length };
    }
  }
  // for-each-ref's last --sort is its primary key.
  const sorts = [...options.sort].reverse().map((key) => `--sort=${key}`);
  const result = await runGit([
    "--git-dir",
    repo.gitdir,
    "for-each-ref",
    "--format=%(refname)",
    ...sorts,
    options.prefix,
  ]);
  if (result.code !== 0) throw new Error(`git for-each-ref failed: ${result.stderr.trim()}`);
  const names = result.stdout
    .toString("utf8")
    .split("\n")
    .filter((name) => name.startsWith(options.prefix) && isReadableRef(name));
  return { names: names.slice(start, start + count), total: names.length };
}
