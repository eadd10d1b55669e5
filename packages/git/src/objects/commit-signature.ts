import { runGit } from "../util/run-git.js";

/** A commit's signature and the bytes it signs: the commit object without its signature header. */
export interface CommitSignature {
  /** The armored signature (`-----BEGIN PGP SIGNATURE-----` or `-----BEGIN SSH SIGNATURE-----`), newline-terminated. */
  readonly signature: string;
  /** The commit object as signed: every header but `gpgsig`/`gpgsig-sha256`, then the message. */
  readonly payload: string;
}

/**
 * Splits a raw commit object into its signature and payload, as git's `parse_signed_commit`
 * does: the `gpgsig` (or `gpgsig-sha256`) header and its continuation lines (a leading space)
 * form the signature; everything else, byte for byte, is the payload. Undefined when unsigned.
 */
export function splitSignedCommit(raw: Buffer): CommitSignature | undefined {
  const text = raw.toString("utf8");
  const headerEnd = text.indexOf("\n\n");
  const headers = headerEnd < 0 ? text : text.slice(0, headerEnd + 1);
  const lines = headers.split("\n");
  const kept: string[] = [];
  const signature: string[] = [];
  let inSignature = false;
  let found = false;
  for (const [i, line] of lines.entries()) {
    if (i === lines.length - 1 && line === "") break;
    if (inSignature && line.startsWith(" ")) {
      signature.push(line.slice(1));
      continue;
    }
    inSignature = false;
    if (!found && (line.startsWith("gpgsig ") || line.startsWith("gpgsig-sha256 "))) {
      inSignature = true;
      found = true;
      signature.push(line.slice(line.indexOf(" ") + 1));
      continue;
    }
    kept.push(line);
  }
  if (!found) return undefined;
  const rest = headerEnd < 0 ? "" : text.slice(headerEnd + 1);
  return { signature: `${signature.join("\n")}\n`, payload: `${kept.join("\n")}\n${rest}` };
}

const cache = new Map<string, CommitSignature | null>();
const CACHE_LIMIT = 4096;

function remember(sha: string, value: CommitSignature | null): void {
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(sha, value);
}

/**
 * The signatures of the given commits of a repository (only those that are signed), with one
 * `git cat-file --batch` for all commits not read before. Commits never change, so what is read
 * is kept by id (4,096 commits, oldest out).
 */
export async function readCommitSignatures(
  gitdir: string,
  shas: readonly string[],
): Promise<Map<string, CommitSignature>> {
  const result = new Map<string, CommitSignature>();
  const missing: string[] = [];
  for (const sha of new Set(shas)) {
    const known = cache.get(sha);
    if (known === undefined) missing.push(sha);
    else if (known) result.set(sha, known);
  }
  if (missing.length > 0) {
    const batch = await runGit(["cat-file", "--batch"], { cwd: gitdir, input: `${missing.join("\n")}\n` });
    if (batch.code !== 0) throw new Error(`git cat-file failed: ${batch.stderr}`);
    const out = batch.stdout;
    let offset = 0;
    while (offset < out.length) {
      const headerEnd = out.indexOf(10, offset);
      if (headerEnd < 0) break;
      const [sha = "", type, sizeText] = out.subarray(offset, headerEnd).toString("utf8").split(" ");
      if (type === "missing" || sizeText === undefined) {
        offset = headerEnd + 1;
        continue;
      }
      const size = Number(sizeText);
      const body = out.subarray(headerEnd + 1, headerEnd + 1 + size);
      offset = headerEnd + 1 + size + 1;
      if (type !== "commit") continue;
      const split = splitSignedCommit(body) ?? null;
      remember(sha, split);
      if (split) result.set(sha, split);
    }
  }
  return result;
}
