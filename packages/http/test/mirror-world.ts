import { listen, openTestApp, type TestApp, type TestUser } from "./support.js";

/** An app that may mirror from loopback (`[migrations] ALLOW_LOCALNETWORKS`), served on a port so its repositories are real remotes. */
export interface MirrorWorld {
  readonly t: TestApp;
  /** Where the app serves git, e.g. `http://127.0.0.1:4321`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function mirrorWorld(
  dialect: Parameters<typeof openTestApp>[0],
  overrides: Parameters<typeof openTestApp>[1] = {},
): Promise<MirrorWorld> {
  const t = await openTestApp(dialect, { migrations: { allowLocalNetworks: true }, ...overrides });
  const served = await listen(t.app);
  return {
    t,
    url: served.url,
    async close() {
      await t.services.pullMirrors.idle();
      await t.services.pushMirrors.idle();
      await served.close();
      await t.close();
    },
  };
}

/** Commits a new file to a branch through the API; resolves with the new commit's sha. */
export async function commitFile(
  t: TestApp,
  user: TestUser,
  repo: string,
  path: string,
  options: { branch?: string; newBranch?: string } = {},
): Promise<string> {
  const res = await t.call("POST", `/repos/${repo}/contents/${path}`, {
    token: user.token,
    body: {
      content: Buffer.from(`${path}\n`).toString("base64"),
      message: `add ${path}`,
      ...(options.branch ? { branch: options.branch } : {}),
      ...(options.newBranch ? { new_branch: options.newBranch } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`commit failed: ${res.status} ${res.text}`);
  return res.json.commit.sha as string;
}

/** Where a branch of a repository points (undefined when it does not exist). */
export async function branchSha(t: TestApp, user: TestUser, repo: string, branch: string) {
  const res = await t.call("GET", `/repos/${repo}/branches/${branch}`, { token: user.token });
  return res.status === 200 ? (res.json.commit.id as string) : undefined;
}
