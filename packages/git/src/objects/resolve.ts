import { join } from "node:path";
import git from "isomorphic-git";
import { GitEmptyRepositoryError, GitNotFoundError } from "../errors/git-error.js";
import { isReadableRef } from "../util/ref-names.js";
import { type IsoContext, isIsoNotFound } from "./iso.js";
import { objectInfo, readTagCached } from "./object-cache.js";
import { lookupRef, refSnapshot } from "./repo-state.js";

const FULL_SHA = /^[0-9a-f]{40}$/;
const SHORT_SHA = /^[0-9a-f]{4,39}$/;

/** The type of a git object. */
export type ObjectType = "commit" | "tree" | "blob" | "tag";

/** Reads an object's type, or undefined when the object does not exist (its content is not read). */
export async function objectType(ctx: IsoContext, oid: string): Promise<ObjectType | undefined> {
  return (await objectInfo(ctx, oid))?.type;
}

/** Follows annotated tags from `oid` down to the object they point at. */
export async function peel(ctx: IsoContext, oid: string): Promise<{ oid: string; type: ObjectType }> {
  let current = oid;
  for (let depth = 0; depth < 16; depth++) {
    const type = await objectType(ctx, current);
    if (!type) throw new GitNotFoundError(`object ${current} does not exist`);
    if (type !== "tag") return { oid: current, type };
    current = (await readTagCached(ctx, current)).tag.object;
  }
  throw new GitNotFoundError(`tag chain from ${oid} is too deep`);
}

/** How many symbolic refs (`ref: refs/heads/main`) a read follows before giving up, as git does. */
const MAX_SYMREF_DEPTH = 5;

/**
 * The object id a full ref (`refs/heads/main`) or `HEAD` points at, as of the repository's ref
 * snapshot ({@link refSnapshot}: read once, dropped on every change Kiln makes), or undefined.
 * For reads; a write comparing a ref before changing it uses {@link readRef}.
 */
export async function refValue(ctx: IsoContext, ref: string): Promise<string | undefined> {
  return lookupRef(await refSnapshot(ctx.gitdir), ref);
}

/**
 * Reads a full ref (`refs/heads/main`) to its object id from disk, now, or undefined when it
 * does not exist.
 * Only that exact name is looked at, loose or packed (never isomorphic-git's guesses such as
 * `refs/tags/<ref>`), symbolic refs are followed only to names that pass the same check, and a
 * name git's rules refuse (NUL, `.` or `..` segments, …) names no ref, so it is undefined too
 * and never reaches the file system.
 */
export async function readRef(ctx: IsoContext, ref: string): Promise<string | undefined> {
  let name = ref;
  for (let depth = 0; depth <= MAX_SYMREF_DEPTH; depth++) {
    if (!isReadableRef(name)) return undefined;
    const value = (await readLooseRef(ctx, name)) ?? (await readPackedRefs(ctx)).get(name);
    if (value === undefined) return undefined;
    if (!value.startsWith("ref: ")) return FULL_SHA.test(value) ? value : undefined;
    name = value.slice("ref: ".length).trim();
  }
  return undefined;
}

/** The content of the loose ref file `name` (already checked to stay under `refs/`), trimmed. */
async function readLooseRef(ctx: IsoContext, name: string): Promise<string | undefined> {
  try {
    return (await ctx.fs.promises.readFile(join(ctx.gitdir, name), "utf8")).trim();
  } catch (error) {
    // Missing, or a directory (`refs/heads/a` when `a/b` exists), or under a file (`main/x`).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    throw error;
  }
}

/** The refs of `packed-refs` by full name (peeled `^` lines and comments skipped). */
async function readPackedRefs(ctx: IsoContext): Promise<Map<string, string>> {
  const refs = new Map<string, string>();
  const text = await readLooseRef(ctx, "packed-refs");
  for (const line of text?.split("\n") ?? []) {
    const space = line.indexOf(" ");
    if (line.startsWith("#") || line.startsWith("^") || space < 0) continue;
    refs.set(line.slice(space + 1).trim(), line.slice(0, space));
  }
  return refs;
}

/** The branch HEAD points at (the repository's default branch), e.g. `main`. */
export async function headBranch(ctx: IsoContext): Promise<string> {
  const head = (await refSnapshot(ctx.gitdir)).head;
  const target = head.startsWith("ref: ") ? head.slice("ref: ".length) : head;
  return target.startsWith("refs/heads/") ? target.slice("refs/heads/".length) : target;
}

/** Whether the repository has no branch at all (Forgejo's `IsEmpty`). */
export async function isEmptyRepository(ctx: IsoContext): Promise<boolean> {
  return !(await refSnapshot(ctx.gitdir)).names.some((name) => name.startsWith("refs/heads/"));
}

/**
 * Resolves what a user may name a commit by — a full sha, a branch, a tag, a full ref, `HEAD`
 * or a short sha, in that order (Forgejo's order) — to a commit sha. Throws not-found, or
 * empty-repository when the repository has no branch and nothing matched.
 */
export async function resolveCommit(ctx: IsoContext, name: string): Promise<string> {
  const candidates: string[] = [];
  if (FULL_SHA.test(name)) candidates.push(name);
  for (const ref of [
    `refs/heads/${name}`,
    `refs/tags/${name}`,
    ...(name.startsWith("refs/") ? [name] : []),
  ]) {
    const oid = await refValue(ctx, ref);
    if (oid) candidates.push(oid);
  }
  if (name === "HEAD") {
    const oid = await refValue(ctx, "HEAD");
    if (oid) candidates.push(oid);
  }
  if (candidates.length === 0 && SHORT_SHA.test(name)) {
    try {
      candidates.push(await git.expandOid({ ...ctx, oid: name }));
    } catch (error) {
      if (!isIsoNotFound(error) && (error as { code?: string }).code !== "AmbiguousError") throw error;
    }
  }
  for (const oid of candidates) {
    const type = await objectType(ctx, oid);
    if (!type) continue;
    const peeled = await peel(ctx, oid);
    if (peeled.type === "commit") return peeled.oid;
  }
  if (await isEmptyRepository(ctx)) throw new GitEmptyRepositoryError();
  throw new GitNotFoundError(`commit ${name} does not exist`);
}
