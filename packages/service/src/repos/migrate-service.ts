import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { InvalidArgumentError, PermissionDeniedError, type Repository, type User } from "@kiln/domain";
import { cloneRemote } from "@kiln/git";
import type { ServiceContext } from "../context.js";
import { withGitErrors } from "./git-errors.js";
import { checkRepoName } from "./repo-names.js";
import type { RepoService } from "./repo-service.js";

/** What `POST /repos/migrate` takes (the git parts of `MigrateRepoOptions`). */
export interface MigrateInput {
  readonly cloneAddr: string;
  readonly repoName: string;
  readonly description?: string;
  readonly private?: boolean;
  readonly mirror?: boolean;
  readonly authUsername?: string;
  readonly authPassword?: string;
  readonly authToken?: string;
}

const LOCAL_NETWORKS = new BlockList();
for (const [net, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["169.254.0.0", 16],
  ["0.0.0.0", 8],
] as const) {
  LOCAL_NETWORKS.addSubnet(net, prefix, "ipv4");
}
LOCAL_NETWORKS.addAddress("::1", "ipv6");
LOCAL_NETWORKS.addSubnet("fc00::", 7, "ipv6");
LOCAL_NETWORKS.addSubnet("fe80::", 10, "ipv6");

/**
 * Migrations from another git server (Forgejo's routers/api/v1/repo/migrate.go, git parts only):
 * a new mirror is refused before anything is created while `[repository] DISABLE_MIRRORS` is set
 * (existing mirrors are untouched); loopback and private addresses need
 * `[migrations] ALLOW_LOCALNETWORKS`; local paths need a user allowed to import them.
 */
export class MigrateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
  ) {}

  async migrate(doer: User, owner: User, input: MigrateInput): Promise<Repository> {
    if (input.mirror && this.ctx.settings.repository.disableMirrors) {
      throw new PermissionDeniedError("the site administrator has disabled the creation of new pull mirrors");
    }
    checkRepoName(input.repoName);
    await this.repos.checkMayCreate(doer, owner);
    const allowLocal = await this.checkAddress(doer, input.cloneAddr);
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
          originalUrl: input.cloneAddr,
        },
        async () => {
          await withGitErrors(() =>
            cloneRemote(this.repos.store, owner.name, input.repoName, {
              url: input.cloneAddr,
              ...(auth ? { auth } : {}),
              allowLocal,
            }),
          );
        },
      )
      .then(async (repo) => this.repos.afterPush(repo, []));
  }

  /** Validates the clone address; resolves with whether it is a local path the doer may import. */
  private async checkAddress(doer: User, address: string): Promise<boolean> {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      if (address.startsWith("/")) return this.allowLocalPath(doer);
      throw new InvalidArgumentError(`Invalid url: ${address}`);
    }
    if (url.protocol === "file:") return this.allowLocalPath(doer);
    if (!["http:", "https:", "git:"].includes(url.protocol))
      throw new InvalidArgumentError(`Invalid url: ${address}`);
    if (!this.ctx.settings.migrations.allowLocalNetworks && (await isLocalNetwork(url.hostname))) {
      throw new InvalidArgumentError("You can not import from disallowed hosts.");
    }
    return false;
  }

  private allowLocalPath(doer: User): boolean {
    if (!doer.isAdmin && !doer.allowImportLocal) {
      throw new PermissionDeniedError("You don't have permission to import local repositories.");
    }
    return true;
  }
}

/** Whether a host name resolves to a loopback, private or link-local address. */
async function isLocalNetwork(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) throw new InvalidArgumentError(`cannot resolve host ${hostname}`);
  return addresses.some((a) => LOCAL_NETWORKS.check(a.address, a.family === 6 ? "ipv6" : "ipv4"));
}
