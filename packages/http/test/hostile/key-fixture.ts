import { gpgHome, sshKeyPair } from "../keys.js";
import type { TestApp, TestUser } from "../support.js";
import type { WorldKeys } from "./world-model.js";

/**
 * Keys in the hostile fixture: an SSH key and a GPG key of the site admin (`/user/keys/{id}`,
 * `/user/gpg_keys/{id}`: nobody else may see or delete them) and one deploy key on each fixture
 * repository (`/repos/{owner}/{repo}/keys/{id}`).
 */
export async function seedKeys(
  t: TestApp,
  admin: TestUser,
  repos: readonly { readonly id: number; readonly name: string; readonly owner: string }[],
): Promise<WorldKeys> {
  const sshTitle = `${admin.name}-own-key`;
  const ssh = await t.call("POST", "/user/keys", {
    token: admin.token,
    body: { title: sshTitle, key: sshKeyPair().publicKey },
  });
  const gpg = gpgHome();
  let gpgId: number;
  let gpgKeyId: string;
  try {
    gpgKeyId = gpg.generate(admin.name, `${admin.name}@example.com`);
    const made = await t.call("POST", "/user/gpg_keys", {
      token: admin.token,
      body: { armored_public_key: gpg.exportArmored(gpgKeyId) },
    });
    gpgId = made.json.id;
  } finally {
    gpg.close();
  }
  const deployKey = sshKeyPair().publicKey;
  const deploy: Record<number, number> = {};
  for (const r of repos) {
    const made = await t.call("POST", `/repos/${r.owner}/${r.name}/keys`, {
      token: admin.token,
      body: { title: `${r.name}-deploy`, key: deployKey },
    });
    deploy[r.id] = made.json.id;
  }
  return { ssh: { id: ssh.json.id, target: sshTitle }, gpg: { id: gpgId, target: gpgKeyId }, deploy };
}
