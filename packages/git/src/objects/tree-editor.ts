import git from "isomorphic-git";
import { GitInvalidArgumentError } from "../errors/git-error.js";
import type { IsoContext } from "./iso.js";
import { readTreeEntries, type TreeEntry } from "./tree-entries.js";

interface Leaf {
  readonly kind: "leaf";
  readonly mode: string;
  readonly type: "blob" | "commit";
  readonly sha: string;
}

interface Dir {
  readonly kind: "dir";
  /** The stored tree this directory came from, until it is changed. */
  sha: string | undefined;
  children: Map<string, Leaf | Dir> | undefined;
}

function toNode(entry: TreeEntry): Leaf | Dir {
  if (entry.type === "tree") return { kind: "dir", sha: entry.sha, children: undefined };
  return { kind: "leaf", mode: entry.mode, type: entry.type, sha: entry.sha };
}

/**
 * Edits a tree in memory — set, remove and look up paths — and writes only the trees that
 * changed. Directories left empty by removals disappear, as git cannot store them.
 */
export class TreeEditor {
  readonly #ctx: IsoContext;
  readonly #root: Dir;

  constructor(ctx: IsoContext, rootTree: string | undefined) {
    this.#ctx = ctx;
    this.#root = { kind: "dir", sha: rootTree, children: rootTree ? undefined : new Map() };
  }

  async #children(dir: Dir): Promise<Map<string, Leaf | Dir>> {
    if (!dir.children) {
      const entries = dir.sha ? await readTreeEntries(this.#ctx, dir.sha) : [];
      dir.children = new Map(entries.map((entry) => [entry.name, toNode(entry)]));
    }
    return dir.children;
  }

  /** Walks to the directory holding `path`'s last segment; creates missing directories when `create`. */
  async #parent(path: string, create: boolean): Promise<{ dirs: Dir[]; name: string } | undefined> {
    const segments = path.split("/");
    const name = segments.pop() ?? "";
    const dirs: Dir[] = [this.#root];
    for (const [index, segment] of segments.entries()) {
      const current = dirs[dirs.length - 1]!;
      const children = await this.#children(current);
      let next = children.get(segment);
      if (!next) {
        if (!create) return undefined;
        next = { kind: "dir", sha: undefined, children: new Map() };
        children.set(segment, next);
      }
      if (next.kind !== "dir") {
        if (!create) return undefined;
        const prefix = segments.slice(0, index + 1).join("/");
        throw new GitInvalidArgumentError(`a file exists where a directory is needed: ${prefix}`);
      }
      dirs.push(next);
    }
    return { dirs, name };
  }

  /** The leaf (file, symlink or submodule) at `path`, or undefined; a directory there reads as `"dir"`. */
  async get(path: string): Promise<{ mode: string; sha: string } | "dir" | undefined> {
    const found = await this.#parent(path, false);
    if (!found) return undefined;
    const node = (await this.#children(found.dirs[found.dirs.length - 1]!)).get(found.name);
    if (!node) return undefined;
    return node.kind === "dir" ? "dir" : { mode: node.mode, sha: node.sha };
  }

  /** Puts a blob at `path`, creating directories; refuses when a directory is there. */
  async set(path: string, mode: string, sha: string): Promise<void> {
    const found = (await this.#parent(path, true))!;
    const children = await this.#children(found.dirs[found.dirs.length - 1]!);
    if (children.get(found.name)?.kind === "dir") {
      throw new GitInvalidArgumentError(`a directory exists at ${path}`);
    }
    children.set(found.name, { kind: "leaf", mode, type: "blob", sha });
    for (const dir of found.dirs) dir.sha = undefined;
  }

  /** Removes the leaf at `path`; resolves false when there was none. */
  async remove(path: string): Promise<boolean> {
    const found = await this.#parent(path, false);
    if (!found) return false;
    const children = await this.#children(found.dirs[found.dirs.length - 1]!);
    if (children.get(found.name)?.kind !== "leaf") return false;
    children.delete(found.name);
    for (const dir of found.dirs) dir.sha = undefined;
    return true;
  }

  async #write(dir: Dir): Promise<string | undefined> {
    if (dir.sha) return dir.sha;
    const tree: { mode: string; path: string; oid: string; type: "blob" | "tree" | "commit" }[] = [];
    for (const [name, node] of await this.#children(dir)) {
      if (node.kind === "leaf") {
        tree.push({ mode: node.mode, path: name, oid: node.sha, type: node.type });
        continue;
      }
      const sha = await this.#write(node);
      if (sha) tree.push({ mode: "040000", path: name, oid: sha, type: "tree" });
    }
    if (tree.length === 0 && dir !== this.#root) return undefined;
    dir.sha = await git.writeTree({ fs: this.#ctx.fs, gitdir: this.#ctx.gitdir, tree });
    return dir.sha;
  }

  /** Writes every changed tree and resolves with the root tree's sha. */
  async write(): Promise<string> {
    return (await this.#write(this.#root))!;
  }
}
