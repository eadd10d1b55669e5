import type { Attachment, api, Release } from "@kiln/domain";
import { accountSight, toApiRelease } from "@kiln/service";
import type * as v from "valibot";
import type { AppContext } from "../../env.js";
import type { RepoContext } from "./context.js";

/** Releases as the API shows them: assets and publishers loaded in one query each. */
export async function apiReleases(
  c: AppContext,
  access: RepoContext,
  rows: readonly Release[],
): Promise<v.InferOutput<typeof api.Release>[]> {
  const services = c.get("services");
  const settings = c.get("settings");
  const ids = rows.map((r) => r.id);
  const [assets, people] = await Promise.all([
    services.attachments.ofReleases(ids),
    services.users.findByIds([
      ...new Set(rows.map((r) => r.publisherId).filter((id): id is number => id !== null)),
    ]),
  ]);
  const byRelease = new Map<number, Attachment[]>();
  for (const a of assets)
    byRelease.set(a.releaseId as number, [...(byRelease.get(a.releaseId as number) ?? []), a]);
  const byId = new Map(people.map((u) => [u.id, u]));
  const sight = accountSight(access.viewer);
  return rows.map((r) =>
    toApiRelease(
      r,
      access.repo,
      byRelease.get(r.id) ?? [],
      r.publisherId === null ? null : (byId.get(r.publisherId) ?? null),
      sight,
      settings,
    ),
  );
}
