import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compilePathGlob } from "../hooks/tag-rules.js";
import type { SignatureInput } from "../objects/signature.js";
import { gitIn, gitOk, identityEnv } from "../pulls/git-cli.js";
import { runGitOk } from "../util/run-git.js";
import type { GitRepository } from "./git-repository.js";
import type { RepoStore } from "./repo-store.js";
import { ExpansionTooLargeError, expandTemplate } from "./template-expansion.js";

/** Where a template lists the files whose variables are expanded, in Forgejo's order. */
const TEMPLATE_FILES = [".forgejo/template", ".gitea/template"];

/** Options of {@link buildFromTemplate}. */
export interface TemplateBuild {
  /** The branch of the new repository (HEAD points at it). */
  readonly branch: string;
  /** The template's branch whose content is copied, when `gitContent`; absent or missing: empty. */
  readonly templateBranch?: string;
  /** The variables of {@link expandTemplate}. */
  readonly variables: ReadonlyMap<string, string>;
  readonly author: SignatureInput;
}

/** Whether an expanded path can name a file of a tree (no empty, `.`, `..` or `.git` segment). */
function usablePath(path: string): boolean {
  return path
    .split("/")
    .every(
      (segment) => segment !== "" && segment !== "." && segment !== ".." && segment.toLowerCase() !== ".git",
    );
}

/** The most files one generation expands, and the largest it expands. */
const MAX_EXPANDED_FILES = 1000;
const MAX_EXPANDED_SIZE = 1024 * 1024;
/** The largest a file may grow by expansion; a file that would grow more keeps its bytes. */
export const MAX_EXPANDED_OUTPUT = 2 * 1024 * 1024;
/** The bytes of all files one generation expands together; files past it keep their bytes. */
export const MAX_EXPANDED_TOTAL = 16 * 1024 * 1024;

/** The most globs of a `.forgejo/template` file that count; the rest are ignored. */
export const MAX_TEMPLATE_GLOBS = 100;
/** A glob longer than this is ignored. */
const MAX_GLOB_LENGTH = 256;

/**
 * The globs of a `.forgejo/template` file (comments and blank lines skipped; bad globs too), in
 * gobwas/glob's syntax with `/` as separator, as Forgejo reads them. They are matched by a linear
 * table walk ({@link compilePathGlob}), never a backtracking regular expression, so a crafted glob
 * cannot stall the server; at most 100 globs of at most 256 characters count.
 */
export function parseTemplateGlobs(content: string): ((path: string) => boolean)[] {
  const out: ((path: string) => boolean)[] = [];
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (out.length >= MAX_TEMPLATE_GLOBS) break;
    if (line.length > MAX_GLOB_LENGTH) continue;
    try {
      out.push(compilePathGlob(line));
    } catch {
      // Forgejo skips an invalid glob expression.
    }
  }
  return out;
}

/** `blob` expanded, or as it is when expansion would grow it past {@link MAX_EXPANDED_OUTPUT}. */
function expandedOrAsIs(blob: string, variables: ReadonlyMap<string, string>): string {
  try {
    return expandTemplate(blob, variables, false, MAX_EXPANDED_OUTPUT);
  } catch (error) {
    if (error instanceof ExpansionTooLargeError) return blob;
    throw error;
  }
}

/**
 * Builds, in a temporary directory of the store, a bare repository whose `branch` holds one
 * "Initial commit" with the tree of the template's `templateBranch`: files matched by the globs of
 * `.forgejo/template` (or `.gitea/template`) have their content and path expanded, and that file
 * itself is left out (Forgejo's generateRepoCommit). Everything is done with git's plumbing on a
 * temporary index; objects of the template's history that the new commit does not need are
 * pruned. Resolves with the directory, which the caller adopts into the store or removes.
 */
export async function buildFromTemplate(
  store: RepoStore,
  template: GitRepository,
  options: TemplateBuild,
): Promise<string> {
  const temp = await store.tempDir();
  try {
    await runGitOk(["init", "--bare", "--quiet", "--template=", `--initial-branch=${options.branch}`, temp]);
    await writeFile(join(temp, "HEAD"), `ref: refs/heads/${options.branch}\n`);
    const target = { gitdir: temp };
    const tip = options.templateBranch
      ? await gitIn(template, [
          "rev-parse",
          "--verify",
          "--quiet",
          `refs/heads/${options.templateBranch}^{commit}`,
        ])
      : undefined;
    if (tip?.code !== 0) return temp;
    const commit = tip.stdout.toString("utf8").trim();
    await template.withWriteLock(() =>
      gitOk(target, [
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--",
        template.gitdir,
        `refs/heads/${options.templateBranch}`,
      ]),
    );
    const env = { GIT_INDEX_FILE: join(temp, "kiln-template-index") };
    await gitOk(target, ["read-tree", commit], { env });
    const listing = (await gitIn(target, ["ls-files", "-s", "-z"], { env })).stdout.toString("utf8");
    const entries = listing
      .split("\0")
      .filter((line) => line.length > 0)
      .map((line) => {
        // The path is everything after the first tab (a path may hold tabs itself).
        const tab = line.indexOf("\t");
        const [meta, path] = [line.slice(0, tab), line.slice(tab + 1)];
        const [mode, sha] = meta.split(" ") as [string, string];
        return { mode, sha, path };
      });
    const templateFile = TEMPLATE_FILES.map((path) => entries.find((e) => e.path === path)).find(Boolean);
    if (templateFile) {
      const content = await gitOk(target, ["cat-file", "blob", templateFile.sha]);
      const globs = parseTemplateGlobs(content);
      const changes: string[] = [`0 ${"0".repeat(40)}\t${templateFile.path}`];
      let expandedFiles = 0;
      let expandedBytes = 0;
      for (const entry of entries) {
        if (entry === templateFile || (entry.mode !== "100644" && entry.mode !== "100755")) continue;
        if (!globs.some((match) => match(entry.path))) continue;
        // Bounded work: at most 1,000 files are expanded, each of at most 1 MiB growing to at most
        // 2 MiB, 16 MiB in all (other files keep their bytes, as binary files do); expansion is
        // linear, and the event loop is let go between files.
        if (++expandedFiles > MAX_EXPANDED_FILES) break;
        const size = Number(await gitOk(target, ["cat-file", "-s", entry.sha]));
        if (!(size <= MAX_EXPANDED_SIZE) || expandedBytes + size > MAX_EXPANDED_TOTAL) continue;
        expandedBytes += size;
        const bytes = (await gitIn(target, ["cat-file", "blob", entry.sha])).stdout;
        // A binary file (a NUL byte) keeps its bytes: text expansion would mangle them.
        const blob = bytes.includes(0) ? "" : bytes.toString("utf8");
        await new Promise<void>((resolve) => setImmediate(resolve));
        const expanded = bytes.includes(0) ? blob : expandedOrAsIs(blob, options.variables);
        const sha =
          expanded === blob
            ? entry.sha
            : await gitOk(target, ["hash-object", "-w", "--stdin"], { input: expanded });
        const expandedPath = expandTemplate(entry.path, options.variables, true);
        const path = usablePath(expandedPath) ? expandedPath : entry.path;
        if (path === entry.path && sha === entry.sha) continue;
        if (path !== entry.path) changes.push(`0 ${"0".repeat(40)}\t${entry.path}`);
        changes.push(`${entry.mode} ${sha}\t${path}`);
      }
      await gitOk(target, ["update-index", "-z", "--index-info"], { env, input: `${changes.join("\0")}\0` });
    }
    const tree = await gitOk(target, ["write-tree"], { env });
    const newCommit = await gitOk(target, ["commit-tree", tree, "-m", "Initial commit"], {
      env: { ...identityEnv("AUTHOR", options.author), ...identityEnv("COMMITTER", options.author) },
    });
    await gitOk(target, ["update-ref", `refs/heads/${options.branch}`, newCommit]);
    await rm(env.GIT_INDEX_FILE, { force: true });
    await gitOk(target, ["gc", "--quiet", "--prune=now"]);
    return temp;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
