import { mirrors } from "@kiln/storage";
import type { TestApp } from "../support.js";

/** The remote name of the push mirror every fixture repository has (`/push_mirrors/{name}`). */
export const FIXTURE_PUSH_MIRROR = "remote_mirror_fixture0";

/**
 * A push mirror on each fixture repository, whose address names the repository (showing it to
 * someone who may not see the repository is a leak). Written straight to storage: the address
 * points nowhere and is never pushed to (interval 0, no sync on commit).
 */
export async function seedPushMirrors(
  t: TestApp,
  repos: readonly { readonly id: number; readonly name: string }[],
): Promise<void> {
  for (const r of repos) {
    await mirrors.insertPushMirror(t.services.ctx.db, {
      repoId: r.id,
      remoteName: FIXTURE_PUSH_MIRROR,
      remoteAddress: `https://mirrors.invalid/${r.name}.git`,
      credentials: "",
      intervalMs: 0,
      syncOnCommit: false,
    });
  }
}
