import type { TestApp, TestUser } from "../support.js";
import type { WorldHooks } from "./world-model.js";

/**
 * Webhooks in the hostile fixture: one hook on each fixture repository and organization (its URL
 * names the repository or organization, so showing it to someone who may not see them is a leak),
 * one of the site admin's own (`/user/hooks/{id}`) and one system hook (`/admin/hooks/{id}`).
 */
export async function seedHooks(
  t: TestApp,
  admin: TestUser,
  repos: readonly { readonly id: number; readonly name: string }[],
  orgs: readonly { readonly id: number; readonly name: string }[],
): Promise<WorldHooks> {
  const hooks = t.services.webhooks.hooks;
  const make = async (scope: Parameters<typeof hooks.create>[0], name: string) =>
    (
      await hooks.create(scope, {
        type: "forgejo",
        config: { url: `http://hooks.invalid/${name}`, content_type: "json", secret: `${name}-secret` },
        events: ["push"],
        active: false,
      })
    ).hook.id;
  const repo: Record<number, number> = {};
  for (const r of repos) repo[r.id] = await make({ repoId: r.id }, r.name);
  const org: Record<string, number> = {};
  for (const o of orgs) org[o.name] = await make({ ownerId: o.id }, o.name);
  const userName = `${admin.name}-own-hook`;
  const siteName = "kiln-system-hook";
  return {
    repo,
    org,
    user: { id: await make({ ownerId: admin.id }, userName), target: userName },
    admin: { id: await make({ admin: "system" }, siteName), target: siteName },
  };
}
