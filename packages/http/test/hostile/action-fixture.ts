import { actionScope, actorFor } from "@kiln/service";
import { actionRuns, repositories } from "@kiln/storage";
import type { TestApp, TestUser } from "../support.js";

/**
 * Actions settings in the hostile fixture: a variable and a secret on each fixture repository and
 * organization and on the site admin's account (the `{variablename}` / `{secretname}` fillers),
 * and one waiting run per repository (the `{run_id}` filler), by repository id.
 */
export async function seedActions(
  t: TestApp,
  admin: TestUser,
  repos: readonly { readonly id: number; readonly name: string }[],
  orgs: readonly { readonly id: number; readonly name: string }[],
): Promise<Record<number, number>> {
  const settings = t.services.actionSettings;
  const actor = actorFor(await t.services.users.getByName(admin.name));
  const scopes = [
    ...repos.map((r) => ({ scope: actionScope.repo(r), name: r.name })),
    ...orgs.map((o) => ({ scope: actionScope.owner(o), name: o.name })),
    { scope: actionScope.owner(admin), name: admin.name },
  ];
  for (const { scope, name } of scopes) {
    await settings.createVariable(actor, scope, "FIXTURE_VARIABLE", `variable of ${name}`);
    await settings.putSecret(actor, scope, "FIXTURE_SECRET", `secret of ${name}`);
  }
  const runs: Record<number, number> = {};
  for (const r of repos) {
    const row = await repositories.findRepositoryById(t.services.ctx.db, r.id);
    const { run } = await actionRuns.insertRun(
      t.services.ctx.db,
      {
        repoId: r.id,
        ownerId: row?.ownerId ?? 0,
        title: `run of ${r.name}`,
        workflowId: "ci.yml",
        triggerUserId: admin.id,
        ref: "refs/heads/main",
        commitSha: "0".repeat(40),
        event: "workflow_dispatch",
        status: "waiting",
        inputs: "{}",
        startedAt: null,
        stoppedAt: null,
      },
      [{ name: "build", needs: "[]", runsOn: '["docker"]', status: "waiting" }],
    );
    runs[r.id] = run.id;
  }
  return runs;
}
