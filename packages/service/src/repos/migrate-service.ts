import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { InvalidArgumentError, PermissionDeniedError, type Repository, type User } from "@kiln/domain";
import {
  type CheckedRemote,
  type CloneRemoteOptions,
  checkRemote,
  cloneRemote,
  GitMigrationError,
} from "@kiln/git";
import { mirrors } from "@kiln/storage";
import { mayImportLocal } from "../access/owner-rules.js";
import type { ServiceContext } from "../context.js";
import { PULL_MIRRORS_DISABLED, type PullMirrorService } from "../mirrors/pull-mirror-service.js";
import { remotePolicy } from "../outbound/remote-policy.js";
import { withGitErrors } from "./git-errors.js";
import type { RefUpdates } from "./ref-updates.js";
import { checkRepoName } from "./repo-names.js";
import type { RepoService } from "./repo-service.js";

/** What `POST /repos/migrate` takes (the git parts of `MigrateRepoOptions`). */
export interface MigrateInput {
  readonly cloneAddr: string;
  readonly repoName: string;
  readonly description?: string;
  readonly private?: boolean;
  readonly mirror?: boolean;
  /** A pull mirror's interval (Go duration; default `[mirror] DEFAULT_INTERVAL`, 0: no periodic sync). */
  readonly mirrorInterval?: string;
  readonly authUsername?: string;
  readonly authPassword?: string;
  readonly authToken?: string;
}

/**
 * Migrations from another git server (Forgejo's routers/api/v1/repo/migrate.go, git parts only):
 * a new mirror is refused before anything is created while `[repository] DISABLE_MIRRORS` is set
 * (existing mirrors are untouched); a remote must be an http(s) URL that git and WHATWG read
 * alike, whose host resolves (once, and the clone is pinned to that answer) to public addresses,
 * or loopback and private ones with `[migrations] ALLOW_LOCALNETWORKS`; local paths need a user
 * allowed to import them. Every failure to read the source gets one message; the log has why.
 */
export class MigrateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly pullMirrors?: PullMirrorService,
  ) {}

  async migrate(doer: User, owner: User, input: MigrateInput): Promise<Repository> {
    if (input.mirror && (this.ctx.settings.repository.disableMirrors || !this.pullMirrors)) {
      throw new PermissionDeniedError(PULL_MIRRORS_DISABLED);
    }
    // A mirror's refusal, address and interval are checked before anything is made.
    const mirror = input.mirror
      ? this.pullMirrors?.plan(input.cloneAddr, input.mirrorInterval, {
          username: input.authUsername || (input.authToken ? "oauth2" : ""),
          password: input.authToken || input.authPassword || "",
        })
      : undefined;
    checkRepoName(input.repoName);
    await this.repos.checkMayCreate(doer, owner);
    const from = await this.checkAddress(doer, input.cloneAddr);
    const auth =
      input.authToken || input.authUsername || input.authPassword
        ? {
            username: input.authUsername || (input.authToken ? "oauth2" : ""),
            password: input.authToken || input.authPassword || "",
          }
        : undefined;
    return this.repos
      .createWith(
        owner,
        input.repoName,
        {
          isPrivate: input.private ?? false,
          description: input.description ?? "",
          defaultBranch: "main",
          isMirror: input.mirror ?? false,
          originalUrl: redact(input.cloneAddr),
          creatorId: doer.id,
          ...(mirror && this.pullMirrors
            ? {
                withRow: async (trx, row) => {
                  await mirrors.insertMirror(
                    trx,
                    (this.pullMirrors as PullMirrorService).newRow(row.id, mirror),
                  );
                },
              }
            : {}),
        },
        async () => {
          await withGitErrors(() =>
            cloneRemote(this.repos.store, owner.name, input.repoName, {
              from,
              ...(auth ? { auth } : {}),
            }).catch((error: unknown) => this.logFailure(error, from)),
          );
        },
      )
      .then(async (repo) => this.refs.record(repo, []));
  }

  /**
   * Validates the clone address and resolves what to clone: a remote checked (and resolved)
   * once for the site's network policy, or a local path the doer may import.
   */
  private async checkAddress(doer: User, address: string): Promise<CloneRemoteOptions["from"]> {
    if (address.startsWith("/")) return { localPath: this.allowLocalPath(doer, address) };
    if (/^file:/i.test(address)) {
      let path: string;
      try {
        path = fileURLToPath(address);
      } catch {
        throw new InvalidArgumentError("Invalid URL: not a local path.");
      }
      return { localPath: this.allowLocalPath(doer, path) };
    }
    return withGitErrors(() =>
      checkRemote(address, remotePolicy(this.ctx.settings)).catch((error: unknown) =>
        this.logFailure(error, address),
      ),
    );
  }

  private allowLocalPath(doer: User, path: string): string {
    if (!mayImportLocal(doer)) {
      throw new PermissionDeniedError("You don't have permission to import local repositories.");
    }
    if (!isAbsolute(path))
      throw new InvalidArgumentError("Invalid local path, it does not exist or not a directory.");
    return path;
  }

  /** Logs why a source could not be read (the caller only ever sees one message), then rethrows. */
  private logFailure(error: unknown, source: CheckedRemote | { localPath: string } | string): never {
    if (error instanceof GitMigrationError) {
      const where =
        typeof source === "string" ? source : "localPath" in source ? source.localPath : source.url.href;
      this.ctx.logger.warn(
        { source: redact(where), cause: String(error.cause ?? "") },
        "migration: the source could not be read",
      );
    }
    throw error;
  }
}

/** A source without its password, for the log and the stored original address. */
function redact(source: string): string {
  try {
    const url = new URL(source);
    if (url.password) url.password = "***";
    return url.href;
  } catch {
    return source;
  }
}
