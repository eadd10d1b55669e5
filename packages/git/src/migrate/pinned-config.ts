import { GitMigrationError } from "../errors/git-error.js";
import { runGit } from "../util/run-git.js";
import { type CheckedRemote, SOURCE_UNREADABLE_MESSAGE } from "./checked-remote.js";

let gitVersion: Promise<string> | undefined;

/** Whether the system git is at least 2.37, the first to pass `http.curloptResolve` to libcurl. */
async function gitCanPin(): Promise<boolean> {
  gitVersion ??= runGit(["--version"]).then((r) => r.stdout.toString("utf8"));
  const match = /(\d+)\.(\d+)/.exec(await gitVersion);
  const [major, minor] = [Number(match?.[1] ?? 0), Number(match?.[2] ?? 0)];
  return major > 2 || (major === 2 && minor >= 37);
}

/**
 * The git configuration that keeps a clone on the checked addresses: libcurl resolves the host
 * to exactly the addresses that were checked (`http.curloptResolve`, so a DNS answer that changes
 * after the check is never used), no redirect is followed (`http.followRedirects=false`: libcurl
 * would resolve and connect to a redirect's target before anything could check it), only the
 * source's own scheme may be used, and no stored credential is offered to the source.
 */
export async function pinnedGitConfig(remote: CheckedRemote): Promise<[string, string][]> {
  const { protocol, host, port } = remote.url;
  const config: [string, string][] = [
    ["http.followRedirects", "false"],
    ["protocol.allow", "never"],
    [`protocol.${protocol.slice(0, -1)}.allow`, "always"],
    ["credential.helper", ""],
  ];
  if (remote.addresses.length > 0) {
    if (!(await gitCanPin())) {
      throw new GitMigrationError(SOURCE_UNREADABLE_MESSAGE, {
        cause: new Error("git 2.37 or later is needed to pin a migration to the checked addresses"),
      });
    }
    const addresses = remote.addresses.map((a) => (a.includes(":") ? `[${a}]` : a));
    config.push(["http.curloptResolve", `${host}:${port}:${addresses.join(",")}`]);
  }
  return config;
}
