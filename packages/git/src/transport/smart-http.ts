import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import { installHooks } from "../disk/install-hooks.js";
import type { CommitSignatureCheck } from "../hooks/git-facts.js";
import { openHookChannel, PUSH_HOOK_ENV } from "../hooks/hook-channel.js";
import { judgePush } from "../hooks/judge-push.js";
import { parseRefUpdateLines } from "../hooks/parse-push.js";
import { PUSH_REPORT_ENV, type PushPolicy, type RefUpdate } from "../hooks/push-policy.js";
import { refsChanged } from "../objects/repo-state.js";
import { withoutMachineConfig } from "../util/git-env.js";
import { runGit } from "../util/run-git.js";
import { STAGING_REFS } from "../util/staging-refs.js";
import { feedStdin, type GitProcess, spawnGitInSlot, stdoutStream } from "./git-process.js";
import { classifyGitRequest, type GitService, gitProtocolOf, noCacheHeaders } from "./git-request.js";
import { FLUSH_PKT, pktLine } from "./pkt-line.js";

/** Per-request options of the smart-HTTP handlers. */
export interface GitHttpOptions {
  /** Extra environment for the git process (e.g. identifiers the caller's own hooks read). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The pusher's push policy; the server judges each push against it when the pre-receive hook
   * asks. Without it no branch rule applies.
   */
  readonly pushPolicy?: PushPolicy;
  /**
   * Called after a receive-pack with the ref updates git applied (none when nothing changed),
   * before the client sees the end of the response. Its errors go to `onError`.
   */
  readonly onPushed?: (updates: readonly RefUpdate[]) => void | Promise<void>;
  /**
   * Called for the pre-receive hook (which needs `pushPolicy`) with the updates the policy
   * accepted, before git applies them; a throw refuses the push. The caller journals them here.
   */
  readonly beforeUpdate?: (updates: readonly RefUpdate[]) => Promise<void>;
  /** Told about git failures and callback errors that can no longer change the response. */
  readonly onError?: (error: unknown) => void;
  /** The git binary; `git` from PATH when absent. */
  readonly gitPath?: string;
  /**
   * Verifies the signatures of pushed commits for branches whose rule requires signed commits:
   * it answers the first commit it cannot verify. Without it, a new commit on such a branch only
   * needs to carry a signature.
   */
  readonly verifyCommits?: CommitSignatureCheck;
}

/**
 * The server's environment (receive-pack's hooks need it) without the machine's git configuration,
 * plus the caller's extra variables, the client's protocol, and no hook channel or report path
 * but this request's.
 */
function baseEnv(request: Request, options: GitHttpOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...withoutMachineConfig(), ...options.env };
  delete env[PUSH_HOOK_ENV];
  delete env[PUSH_REPORT_ENV];
  const protocol = gitProtocolOf(request.headers);
  if (protocol) env.GIT_PROTOCOL = protocol;
  else delete env.GIT_PROTOCOL;
  return env;
}

function plain(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function serviceArgs(service: GitService, repo: GitRepository, advertise: boolean): string[] {
  const config = [
    "-c",
    `transfer.hideRefs=${STAGING_REFS}`,
    ...(service === "git-upload-pack" ? ["-c", "uploadpack.allowFilter=true"] : []),
  ];
  const verb = service.slice("git-".length);
  return [...config, verb, "--stateless-rpc", ...(advertise ? ["--advertise-refs"] : []), repo.gitdir];
}

/**
 * Answers `GET info/refs?service=…`: the ref advertisement of `git <service> --stateless-rpc
 * --advertise-refs`, preceded by the `# service=` pkt-line for protocol v0/v1.
 */
export async function handleInfoRefs(
  repo: GitRepository,
  service: GitService,
  request: Request,
  options: GitHttpOptions = {},
): Promise<Response> {
  const env = baseEnv(request, options);
  const result = await runGit(serviceArgs(service, repo, true), {
    env,
    repository: repo.gitdir,
    ...(options.gitPath ? { gitPath: options.gitPath } : {}),
  });
  if (result.code !== 0) {
    options.onError?.(new Error(`git ${service} --advertise-refs failed: ${result.stderr.trim()}`));
    return plain(500, "git failed");
  }
  const v2 = env.GIT_PROTOCOL?.split(":").includes("version=2") ?? false;
  const parts = v2 ? [result.stdout] : [pktLine(`# service=${service}\n`), FLUSH_PKT, result.stdout];
  return new Response(Buffer.concat(parts), {
    status: 200,
    headers: noCacheHeaders(`application/x-${service}-advertisement`),
  });
}

async function readReport(path: string): Promise<RefUpdate[]> {
  const text = await readFile(path, "utf8").catch(() => "");
  await rm(path, { force: true });
  return parseRefUpdateLines(text);
}

/**
 * Answers `POST git-upload-pack` / `POST git-receive-pack` by streaming the (possibly gzipped)
 * request body into `git <service> --stateless-rpc` and its output back. A receive-pack holds
 * the repository's write lock until git exits, then reports the applied ref updates.
 */
export async function handleServiceRpc(
  repo: GitRepository,
  service: GitService,
  request: Request,
  options: GitHttpOptions = {},
): Promise<Response> {
  const expected = `application/x-${service}-request`;
  if ((request.headers.get("content-type") ?? "").split(";")[0]?.trim() !== expected) {
    return plain(415, `expected Content-Type ${expected}`);
  }
  const encoding = (request.headers.get("content-encoding") ?? "").toLowerCase();
  if (encoding !== "" && encoding !== "identity" && encoding !== "gzip" && encoding !== "x-gzip") {
    return plain(415, `unsupported Content-Encoding ${encoding}`);
  }
  const gzip = encoding === "gzip" || encoding === "x-gzip";
  const env = baseEnv(request, options);
  const headers = noCacheHeaders(`application/x-${service}-result`);
  const args = serviceArgs(service, repo, false);

  const reportFailure = async (proc: GitProcess) => {
    const { code, signal, stderr } = await proc.exited;
    if (code !== 0) options.onError?.(new Error(`git ${service} exited ${code ?? signal}: ${stderr.trim()}`));
  };

  if (service === "git-upload-pack") {
    const proc = await spawnGitInSlot(repo.gitdir, args, env, options.gitPath);
    feedStdin(proc, request.body, gzip);
    return new Response(
      stdoutStream(proc, () => reportFailure(proc)),
      { status: 200, headers },
    );
  }

  // git's probe before a large push posts a lone flush packet, with which receive-pack reads no
  // command and writes nothing: it is answered without git, the hook channel or the write lock,
  // as a spawn from a large server process holds its event loop for tens of milliseconds.
  let body = request.body;
  if (!gzip && request.headers.get("content-length") === String(FLUSH_PKT.length)) {
    const bytes = Buffer.from(await request.arrayBuffer());
    if (bytes.equals(FLUSH_PKT)) {
      try {
        await options.onPushed?.([]);
      } catch (error) {
        options.onError?.(error);
        throw error;
      }
      return new Response(null, { status: 200, headers });
    }
    body = new Blob([bytes]).stream();
  }

  const reportPath = join(tmpdir(), `kiln-push-${randomUUID()}`);
  env[PUSH_REPORT_ENV] = reportPath;
  const policy = options.pushPolicy;
  const hook = policy
    ? await openHookChannel((request) =>
        judgePush(repo.gitdir, policy, request, {
          ...(options.verifyCommits ? { verifyCommits: options.verifyCommits } : {}),
          ...(options.beforeUpdate ? { beforeUpdate: options.beforeUpdate } : {}),
        }),
      )
    : undefined;
  if (hook) env[PUSH_HOOK_ENV] = hook.dir;
  return new Promise<Response>((resolve, reject) => {
    let finish: () => void = () => {};
    const finished = new Promise<void>((done) => {
      finish = done;
    });
    repo
      .withWriteLock(async () => {
        // A repository from before the current hooks gets them now: an older pre-receive would
        // not speak to this channel, and must not let the push through unjudged.
        await installHooks(repo.gitdir);
        const proc = await spawnGitInSlot(repo.gitdir, args, env, options.gitPath);
        feedStdin(proc, body, gzip);
        resolve(
          new Response(
            stdoutStream(proc, () => finished),
            { status: 200, headers },
          ),
        );
        try {
          await reportFailure(proc);
        } finally {
          // git has applied the pushed ref updates (or none): reads see them from now on.
          refsChanged(repo.gitdir);
        }
      })
      .then(async () => {
        const updates = await readReport(reportPath);
        if (options.onPushed) await options.onPushed(updates);
      })
      .catch((error: unknown) => {
        options.onError?.(error);
        reject(error);
      })
      .finally(() => {
        void hook?.close();
        finish();
      });
  });
}

/**
 * Serves one smart-HTTP git request for `repo` given the path below `<repo>.git/`. Permission
 * checks are the caller's: use {@link classifyGitRequest} first to learn the access needed.
 * Answers 404 for anything that is not a smart-HTTP request.
 */
export async function handleGitHttp(
  repo: GitRepository,
  subpath: string,
  request: Request,
  options: GitHttpOptions = {},
): Promise<Response> {
  const route = classifyGitRequest(request.method, subpath, new URL(request.url).searchParams);
  if (!route) return plain(404, "not found");
  return route.kind === "advertise"
    ? handleInfoRefs(repo, route.service, request, options)
    : handleServiceRpc(repo, route.service, request, options);
}
