import { spawn } from "node:child_process";
import { withoutMachineConfig } from "../util/git-env.js";
import { runGit } from "../util/run-git.js";
import { type PushLimits, type RefUpdate, ZERO_SHA } from "./push-policy.js";
import { countRefsOnDisk } from "./refs-on-disk.js";

/** What the limits need to know about the repository, asked only when a limit is set. */
export interface PushSizeFacts {
  /** How many refs the repository has before the push. */
  refCount(): Promise<number>;
  /** The trees the pushed objects point at (peeled), one per object; undefined for one without a tree. */
  treesOf(shas: readonly string[]): Promise<(string | undefined)[]>;
  /**
   * How many files `tree` holds, counting at most to `stop`; `tree` may be a commit or tag that
   * peels to one (0 for an object that does not).
   */
  fileCount(tree: string, stop: number): Promise<number>;
}

/**
 * The refusals of a push under the limits, one message each naming the limit and its key; empty
 * when the push stays within them. Only creations count against `maxRefs` (a repository already
 * past it may still update and delete), and each distinct pushed tree is counted once.
 */
export async function pushLimitRefusals(
  limits: PushLimits | undefined,
  updates: readonly RefUpdate[],
  facts: PushSizeFacts,
): Promise<string[]> {
  const messages: string[] = [];
  const created = updates.filter((u) => u.oldSha === ZERO_SHA && u.newSha !== ZERO_SHA).length;
  if (limits?.maxRefs !== undefined && created > 0) {
    const deleted = updates.filter((u) => u.oldSha !== ZERO_SHA && u.newSha === ZERO_SHA).length;
    const after = (await facts.refCount()) + created - deleted;
    if (after > limits.maxRefs) {
      messages.push(
        `push refused: the repository would hold ${after} refs, more than [repository] MAX_REFS (${limits.maxRefs})`,
      );
    }
  }
  const maxFiles = limits?.maxFiles;
  if (maxFiles !== undefined) {
    const pushed = updates.filter((u) => u.newSha !== ZERO_SHA);
    // One pushed object (most pushes) is counted through its own id: peeling it first would cost
    // a second git process for nothing to deduplicate.
    const trees =
      pushed.length === 1 ? pushed.map((u) => u.newSha) : await facts.treesOf(pushed.map((u) => u.newSha));
    const counted = new Set<string>();
    for (const [index, tree] of trees.entries()) {
      if (tree === undefined || counted.has(tree)) continue;
      counted.add(tree);
      if ((await facts.fileCount(tree, maxFiles + 1)) > maxFiles) {
        const ref = pushed[index]?.ref ?? "";
        messages.push(`push refused: ${ref} holds more than [repository] MAX_FILES (${maxFiles}) files`);
      }
    }
  }
  return messages;
}

/**
 * {@link PushSizeFacts} from the system git in the repository `cwd`; for a push being received,
 * `env` carries git's quarantine variables.
 */
export function gitPushSizeFacts(
  cwd: string,
  env: NodeJS.ProcessEnv = withoutMachineConfig(),
): PushSizeFacts {
  return {
    async refCount() {
      const onDisk = await countRefsOnDisk(cwd);
      if (onDisk !== undefined) return onDisk;
      const result = await runGit(["for-each-ref", "--format=x"], { cwd, env });
      if (result.code !== 0) throw new Error(`git for-each-ref failed: ${result.stderr.trim()}`);
      let count = 0;
      for (const byte of result.stdout) if (byte === 10) count++;
      return count;
    },
    async treesOf(shas) {
      if (shas.length === 0) return [];
      const input = `${shas.map((sha) => `${sha}^{tree}`).join("\n")}\n`;
      const result = await runGit(["cat-file", "--batch-check=%(objectname) %(objecttype)"], {
        cwd,
        env,
        input,
      });
      if (result.code !== 0) throw new Error(`git cat-file failed: ${result.stderr.trim()}`);
      const lines = result.stdout.toString("utf8").split("\n");
      return shas.map((_sha, index) => {
        const [oid, type] = (lines[index] ?? "").split(" ");
        return type === "tree" ? oid : undefined;
      });
    },
    fileCount(tree, stop) {
      return new Promise((resolve, reject) => {
        const child = spawn("git", ["ls-tree", "-r", "-z", "--name-only", tree], {
          cwd,
          env,
          stdio: ["ignore", "pipe", "ignore"],
        });
        let count = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          child.kill();
          resolve(count);
        };
        child.stdout.on("data", (chunk: Buffer) => {
          for (let at = chunk.indexOf(0); at >= 0 && !done; at = chunk.indexOf(0, at + 1)) {
            if (++count >= stop) finish();
          }
        });
        child.on("error", (error) => {
          if (!done) {
            done = true;
            reject(error);
          }
        });
        child.on("close", finish);
      });
    },
  };
}
