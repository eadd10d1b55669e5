import {
  type api,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type Settings,
  type User,
} from "@kiln/domain";
import {
  accountSight,
  type PendingTransfer,
  type RepoAccess,
  type RepoPermission,
  repoPermissionView,
  toApiRepository,
  toApiUser,
  withMirror,
} from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";

/** The `{owner}/{repo}` path parameters every repository route has (resolved by its `repo` need). */
export const repoParams = { owner: v.string(), repo: v.string() };

/** A repository as a route sees it: the access module's answer for the caller. */
export type RepoContext = RepoAccess;

type ApiRepository = v.InferOutput<typeof api.Repository>;

/**
 * Repositories in API shape for the caller: their owners and the caller's permissions come from
 * one query and pending transfers from another, whatever the length of the list. A repository
 * the caller cannot see is left out.
 */
export async function apiRepos(c: AppContext, repos: readonly Repository[]): Promise<ApiRepository[]> {
  const services = c.get("services");
  const settings = c.get("settings");
  const actor = c.get("actor");
  const access = await services.access.repoPermissions(actor, repos);
  const transfers = await services.transfers.pendingFor(repos);
  const mirrors = await services.pullMirrors.viewsOf(repos);
  const parents = await parentsFor(c, repos);
  return repos.flatMap((repo) => {
    const known = access.get(repo.id);
    return known
      ? [
          withParent(
            withMirror(
              shape(settings, actor.user, repo, known, transfers.get(repo.id)),
              mirrors.get(repo.id),
            ),
            repo,
            parents,
          ),
        ]
      : [];
  });
}

/**
 * The parents of the forks among `repos` in API shape, those the caller may see (Forgejo's
 * `parent`; a parent the caller may not see is left out, so `parent` stays null and nothing of a
 * private repository shows). Two queries whatever the length of the list.
 */
async function parentsFor(c: AppContext, repos: readonly Repository[]): Promise<Map<number, ApiRepository>> {
  if (!repos.some((r) => r.isFork && r.forkId !== null)) return new Map();
  const services = c.get("services");
  const actor = c.get("actor");
  const parents = await services.forks.parentsOf(repos);
  const visible = await services.access.visibleRepos(actor, parents);
  const out = new Map<number, ApiRepository>();
  for (const parent of parents) {
    const known = visible.get(parent.id);
    if (known) {
      const permissions = repoPermissionView(known.permission);
      out.set(
        parent.id,
        toApiRepository(parent, known.owner, accountSight(actor.user), permissions, c.get("settings")),
      );
    }
  }
  return out;
}

function withParent(
  json: ApiRepository,
  repo: Repository,
  parents: Map<number, ApiRepository>,
): ApiRepository {
  const parent = repo.forkId !== null ? parents.get(repo.forkId) : undefined;
  return parent ? { ...json, parent } : json;
}

/** A page of repositories in API shape, with `X-Total-Count` and `Link`: the shape of every repository list. */
export async function pagedRepos(
  c: AppContext,
  query: { page?: string | undefined; limit?: string | undefined },
  load: (page: PageRequest) => Promise<Paged<Repository>>,
): Promise<Response> {
  const page = pageRequest(query, c.get("settings").api);
  const list = await load(page);
  setPagingHeaders(c, page, list.total);
  return c.json(await apiRepos(c, list.items));
}

/** One repository in API shape for the caller (owner and permission reused when already known). */
export async function apiRepo(
  c: AppContext,
  repo: Repository,
  known?: { readonly owner: User; readonly permission: RepoPermission },
): Promise<ApiRepository> {
  if (known) {
    const transfer = (await c.get("services").transfers.pendingFor([repo])).get(repo.id);
    const mirror = (await c.get("services").pullMirrors.viewsOf([repo])).get(repo.id);
    const parents = await parentsFor(c, [repo]);
    return withParent(
      withMirror(shape(c.get("settings"), c.get("actor").user, repo, known, transfer), mirror),
      repo,
      parents,
    );
  }
  const [json] = await apiRepos(c, [repo]);
  // Only when the repository was deleted meanwhile.
  if (!json) throw new NotFoundError(`repository does not exist [id: ${repo.id}]`);
  return json;
}

function shape(
  settings: Settings,
  viewer: User | null,
  repo: Repository,
  known: { readonly owner: User; readonly permission: RepoPermission },
  transfer: PendingTransfer | undefined,
): ApiRepository {
  const json = toApiRepository(
    repo,
    known.owner,
    accountSight(viewer),
    repoPermissionView(known.permission),
    settings,
  );
  if (!transfer) return json;
  return {
    ...json,
    repo_transfer: {
      doer: toApiUser(transfer.doer, accountSight(viewer), settings),
      recipient: toApiUser(transfer.recipient, accountSight(viewer), settings),
      teams: transfer.teams.map((t) => ({ id: t.id, name: t.name })),
    },
  };
}
