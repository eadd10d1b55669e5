import type { RawCaller } from "./raw-caller.js";
import type { World } from "./world-model.js";

/**
 * What must survive every hostile request, read by the admin: each private repository (name,
 * visibility, branch head, tags, protections, collaborators, its first issue and tracked
 * times, labels and
 * milestones), each organization (visibility,
 * members, team members and repositories) and the private user's visibility.
 */
export async function snapshot(world: World, call: RawCaller): Promise<string> {
  const cred = { token: world.admin.token };
  const get = async (path: string) => {
    const res = await call({ method: "GET", path, credential: cred });
    return res.status === 200 ? res.json : `status ${res.status}`;
  };
  const pick = (o: unknown, keys: string[]) =>
    typeof o === "object" && o
      ? Object.fromEntries(keys.map((k) => [k, (o as Record<string, unknown>)[k]]))
      : o;
  const names = (list: unknown, key: string) => (Array.isArray(list) ? list.map((x) => x[key]).sort() : list);
  const out: Record<string, unknown> = {};
  for (const r of world.repos) {
    const base = `/repos/${r.owner}/${r.name}`;
    out[r.key] = {
      repo: pick(await get(base), ["id", "full_name", "private", "default_branch", "archived"]),
      head: pick(await get(`${base}/branches/main`), ["name", "commit"]),
      branches: names(await get(`${base}/branches`), "name"),
      tags: names(await get(`${base}/tags`), "name"),
      protections: names(await get(`${base}/branch_protections`), "rule_name"),
      collaborators: names(await get(`${base}/collaborators`), "login"),
      issue: pick(await get(`${base}/issues/1`), [
        "title",
        "body",
        "state",
        "labels",
        "milestone",
        "assignees",
      ]),
      labels: names(await get(`${base}/labels`), "name"),
      milestones: names(await get(`${base}/milestones`), "title"),
      // Readers may comment, react and subscribe (Forgejo allows it), so only times are kept here.
      times: names(await get(`${base}/times`), "time"),
      releases: names(await get(`${base}/releases?draft=false`), "tag_name"),
      releaseAssets: names(await get(`${base}/releases/${r.releaseId}/assets`), "name"),
      issueFiles: names(await get(`${base}/issues/1/assets`), "name"),
      commentFiles: names(await get(`${base}/issues/comments/${r.commentId}/assets`), "name"),
      artifacts: names(
        ((await get(`${base}/actions/artifacts`)) as { artifacts?: unknown }).artifacts,
        "name",
      ),
    };
  }
  for (const p of world.packages) {
    const base = `/packages/${p.owner}/${p.type}/${encodeURIComponent(p.name)}/${p.version}`;
    const pkg = await get(base);
    out[p.key] = {
      pkg: pick(pkg, ["id", "name", "version"]),
      repository:
        typeof pkg === "object" && pkg ? (pkg as { repository?: { name?: string } }).repository?.name : pkg,
      files: names(await get(`${base}/files`), "sha256"),
    };
  }
  for (const o of world.orgs) {
    out[o.key] = {
      org: pick(await get(`/orgs/${o.name}`), ["id", "name", "visibility"]),
      members: names(await get(`/orgs/${o.name}/members`), "login"),
      teams: names(await get(`/orgs/${o.name}/teams`), "name"),
      teamMembers: names(await get(`/teams/${o.teamId}/members`), "login"),
      teamRepos: names(await get(`/teams/${o.teamId}/repos`), "name"),
    };
  }
  out.privateUser = pick(await get(`/users/${world.privateUser.name}`), ["login", "visibility"]);
  out.victim = pick(await get(`/users/${world.victim.name}`), ["login", "visibility", "is_admin"]);
  return JSON.stringify(out, null, 1);
}
