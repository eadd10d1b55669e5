import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import { api, createUser, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";
import { gpgExport, gpgGenerate, sshGenerate } from "./signing-keys.js";

/**
 * Commit signatures end to end: GPG keys (a keyring of two) and an SSH key generated now and
 * registered through the API, signed and unsigned commits made and pushed by the real `git`, their
 * `verification` read back through the API, and a branch requiring signed commits refusing an
 * unsigned push.
 */
describe("commit signature verification with real git", () => {
  const work = tempWorkPath();
  let server: ServerProcess;
  let token: string;
  let dir: string;
  let gnupg: string;
  let repo: string;
  let firstKey: string;
  let secondKey: string;
  let strangerKey: string;
  let ssh: { privateKey: string; publicKey: string };
  const shas: Record<string, string> = {};
  const identity = {
    GIT_AUTHOR_NAME: "Signer",
    GIT_AUTHOR_EMAIL: "signer@example.com",
    GIT_COMMITTER_NAME: "Signer",
    GIT_COMMITTER_EMAIL: "signer@example.com",
  };
  const env = () => ({ ...identity, GNUPGHOME: gnupg });

  const commit = async (file: string, flags: string[] = [], config: string[] = []) => {
    writeFileSync(join(repo, file), `${file}\n`);
    await gitOk(repo, ["add", file], env());
    await gitOk(repo, [...config, "commit", "-q", ...flags, "-m", `add ${file}`], env());
    return (await gitOk(repo, ["rev-parse", "HEAD"], env())).trim();
  };
  const gpgCommit = (file: string, key: string) => commit(file, [`-S${key}`], ["-c", "gpg.program=gpg"]);
  const sshCommit = (file: string) =>
    commit(file, ["-S"], ["-c", "gpg.format=ssh", "-c", `user.signingkey=${ssh.privateKey}`]);
  const verification = async (sha: string) => {
    const res = await api(server.url, "GET", `/repos/signer/signed/git/commits/${sha}`, { token });
    expect(res.status).toBe(200);
    return res.json.commit.verification;
  };

  beforeAll(async () => {
    server = await startServer(work);
    token = (await createUser(server, work, "signer")).token;
    dir = scratch();
    gnupg = join(dir, "gnupg");
    mkdirSync(gnupg);
    chmodSync(gnupg, 0o700);
    firstKey = gpgGenerate(gnupg, "Signer <signer@example.com>");
    secondKey = gpgGenerate(gnupg, "Signer Laptop <signer@example.com>");
    strangerKey = gpgGenerate(gnupg, "Signer Unregistered <signer@example.com>");
    ssh = sshGenerate(dir, "id_signing");
    const keyring = await api(server.url, "POST", "/user/gpg_keys", {
      token,
      body: { armored_public_key: gpgExport(gnupg, firstKey, secondKey) },
    });
    expect(keyring.status).toBe(201);
    expect((await api(server.url, "GET", "/user/gpg_keys", { token })).json).toHaveLength(2);
    const sshKey = await api(server.url, "POST", "/user/keys", {
      token,
      body: { title: "signing", key: ssh.publicKey },
    });
    expect(sshKey.status).toBe(201);
    expect(
      (await api(server.url, "POST", "/user/repos", { token, body: { name: "signed", auto_init: true } }))
        .status,
    ).toBe(201);
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "signer", "signed", "signer", token), "work"]);
    repo = join(dir, "work");
    shas.unsigned = await commit("unsigned.txt");
    shas.first = await gpgCommit("first.txt", firstKey);
    shas.second = await gpgCommit("second.txt", secondKey);
    shas.ssh = await sshCommit("ssh.txt");
    shas.stranger = await gpgCommit("stranger.txt", strangerKey);
    await gitOk(repo, ["push", "-q", "origin", "HEAD:main"], env());
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
  });

  it("reports an unsigned commit as not signed", async () => {
    expect(await verification(shas.unsigned as string)).toEqual({
      verified: false,
      reason: "gpg.error.not_signed_commit",
      signature: "",
      signer: null,
      payload: "",
    });
  });

  it("verifies commits signed by either key of the registered keyring", async () => {
    for (const [sha, key] of [
      [shas.first, firstKey],
      [shas.second, secondKey],
    ] as const) {
      const v = await verification(sha as string);
      expect(v).toMatchObject({
        verified: true,
        reason: `signer / ${key}`,
        signer: { name: "signer", email: "signer@example.com" },
      });
      expect(v.signature).toMatch(/^-----BEGIN PGP SIGNATURE-----/);
      expect(v.payload).toMatch(/^tree [0-9a-f]{40}\n/);
      expect(v.payload).not.toContain("gpgsig");
    }
  });

  it("verifies a commit signed with the registered SSH key", async () => {
    const fingerprint = (await api(server.url, "GET", "/user/keys", { token })).json[0].fingerprint;
    const v = await verification(shas.ssh as string);
    expect(v).toMatchObject({ verified: true, reason: `signer / ${fingerprint}` });
    expect(v.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----/);
  });

  it("does not verify a commit signed by a key nobody registered", async () => {
    const v = await verification(shas.stranger as string);
    expect(v).toMatchObject({ verified: false, reason: "gpg.error.no_gpg_keys_found", signer: null });
    expect(v.signature).toMatch(/^-----BEGIN PGP SIGNATURE-----/);
  });

  it("gives the same verification in the commit list, and none with verification=false", async () => {
    const list = await api(server.url, "GET", "/repos/signer/signed/commits?limit=10", { token });
    expect(list.status).toBe(200);
    const bySha = new Map(
      list.json.map((c: { sha: string; commit: { verification: unknown } }) => [
        c.sha,
        c.commit.verification,
      ]),
    );
    expect(bySha.get(shas.second)).toMatchObject({ verified: true, reason: `signer / ${secondKey}` });
    expect(bySha.get(shas.ssh)).toMatchObject({ verified: true });
    expect(bySha.get(shas.stranger)).toMatchObject({ verified: false });
    expect(bySha.get(shas.unsigned)).toMatchObject({ reason: "gpg.error.not_signed_commit" });
    const bare = await api(server.url, "GET", "/repos/signer/signed/commits?limit=10&verification=false", {
      token,
    });
    expect(bare.json[0].commit.verification).toBeNull();
  });

  it("stops verifying once the key is deleted", async () => {
    const keys = (await api(server.url, "GET", "/user/keys", { token })).json;
    expect((await api(server.url, "DELETE", `/user/keys/${keys[0].id}`, { token })).status).toBe(204);
    expect(await verification(shas.ssh as string)).toMatchObject({
      verified: false,
      reason: "gpg.error.no_gpg_keys_found",
    });
    expect(
      (await api(server.url, "POST", "/user/keys", { token, body: { title: "again", key: ssh.publicKey } }))
        .status,
    ).toBe(201);
  });

  it("refuses unsigned and unverifiable pushes to a branch that requires signed commits, and takes a verified one", async () => {
    const rule = await api(server.url, "POST", "/repos/signer/signed/branch_protections", {
      token,
      body: { rule_name: "main", require_signed_commits: true, enable_push: true },
    });
    expect(rule.status).toBe(201);
    const unsigned = await commit("late.txt");
    const refused = await git(repo, ["push", "origin", "HEAD:main"], env());
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${unsigned}`);
    await gitOk(repo, ["reset", "-q", "--hard", "HEAD~1"], env());
    // Signed, but by a key no account registered: the server cannot verify it, so it is refused too.
    const unverifiable = await gpgCommit("late-stranger.txt", strangerKey);
    const refusedToo = await git(repo, ["push", "origin", "HEAD:main"], env());
    expect(refusedToo.code).not.toBe(0);
    expect(refusedToo.stderr).toContain(`branch main is protected from unverified commit ${unverifiable}`);
    await gitOk(repo, ["reset", "-q", "--hard", "HEAD~1"], env());
    const signed = await gpgCommit("late-signed.txt", firstKey);
    await gitOk(repo, ["push", "-q", "origin", "HEAD:main"], env());
    const head = await api(server.url, "GET", "/repos/signer/signed/branches/main", { token });
    expect(head.json.commit.id).toBe(signed);
    expect(head.json.commit.verification).toMatchObject({ verified: true, reason: `signer / ${firstKey}` });
  });

  it("refuses a commit in the pusher's name signed with another account's key on that branch", async () => {
    const other = await createUser(server, work, "other");
    const otherKey = gpgGenerate(gnupg, "Other <other@example.com>");
    const registered = await api(server.url, "POST", "/user/gpg_keys", {
      token: other.token,
      body: { armored_public_key: gpgExport(gnupg, otherKey) },
    });
    expect(registered.status).toBe(201);
    // Committer signer@example.com, signed by other's registered key: shown as other's signature,
    // but not the committer's, so a branch requiring signed commits refuses it.
    const forged = await gpgCommit("forged.txt", otherKey);
    const refused = await git(repo, ["push", "origin", "HEAD:main"], env());
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${forged}`);
    await gitOk(repo, ["reset", "-q", "--hard", "HEAD~1"], env());
  });
});
