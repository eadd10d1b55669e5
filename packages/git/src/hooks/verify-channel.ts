import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The environment variable naming the socket on which the server verifies pushed commits' signatures. */
export const PUSH_VERIFY_ENV = "KILN_PUSH_VERIFY";

/** A pushed commit as the pre-receive hook reads it from the quarantine: its id and raw object. */
export interface PushedCommit {
  readonly sha: string;
  readonly object: Buffer;
}

/** Answers, for commits in order, the first whose signature the server cannot verify. */
export type CommitSignatureCheck = (commits: readonly PushedCommit[]) => Promise<string | undefined>;

/** The most bytes one question may carry (commit objects are small; a push of thousands still fits). */
const MAX_QUESTION = 64 * 1024 * 1024;

/**
 * Opens a Unix socket on which the pre-receive hook asks the server which pushed commit is
 * unverified: the hook runs in git's process tree and cannot read the database, the server can.
 * One JSON line each way (`{"commits":[{"sha","object":<base64>}]}` → `{"unverified":<sha|null>}`).
 * The socket lives in a fresh private directory (mode 0700), so no other local user can connect
 * whatever the umask. Closed, and its directory removed, by `close()`.
 */
export async function openVerifyChannel(
  check: CommitSignatureCheck,
): Promise<{ path: string; close(): void }> {
  const dir = await mkdtemp(join(tmpdir(), "kiln-verify-"));
  const path = join(dir, "verify.sock");
  // Half-open: the hook ends its side after the question and still reads the answer.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_QUESTION) socket.destroy();
      else chunks.push(chunk);
    });
    socket.on("error", () => {});
    socket.on("end", () => {
      void (async () => {
        let unverified: string | null = null;
        let first = "(unreadable question)";
        try {
          const question = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
            commits: { sha: string; object: string }[];
          };
          const commits = question.commits.map((c) => ({
            sha: c.sha,
            object: Buffer.from(c.object, "base64"),
          }));
          first = commits[0]?.sha ?? first;
          unverified = (await check(commits)) ?? null;
        } catch {
          // A check that fails verifies nothing: the first commit is refused.
          unverified = first;
        }
        socket.end(`${JSON.stringify({ unverified })}\n`);
      })();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    path,
    close() {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asks the server on `path` for the first unverified commit of `commits` (the hook's side). */
export function askUnverified(path: string, commits: readonly PushedCommit[]): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        const answer = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { unverified: string | null };
        resolve(answer.unverified ?? undefined);
      } catch (error) {
        reject(error);
      }
    });
    socket.end(
      JSON.stringify({ commits: commits.map((c) => ({ sha: c.sha, object: c.object.toString("base64") })) }),
    );
  });
}
