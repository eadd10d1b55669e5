import type { AnyRoute } from "../../src/route.js";
import { FIXTURE_PUSH_MIRROR } from "./mirror-fixture.js";
import { type FieldHints, freshName, sampleValid } from "./sample-value.js";
import type { World } from "./world-model.js";

/** One concrete request of a route, aimed at fixture things. */
export interface Instance {
  readonly route: AnyRoute;
  readonly method: string;
  /** The encoded path under /api/v1, query string included. */
  readonly path: string;
  readonly body?: unknown;
  /** Names of the fixture things the request is about (path and owner-like body fields). */
  readonly targets: readonly string[];
  /** Path parameters no filler knows; they got a plausible default. */
  readonly unknownParams: readonly string[];
  /** Set when no valid body or query could be generated (a generator gap, reported). */
  readonly inputIssue?: string;
}

interface Scene {
  readonly values: Readonly<Record<string, string | number | undefined>>;
  readonly targets: readonly string[];
  readonly owner?: { readonly name: string; readonly id: number };
  readonly teamId?: number;
}

const OWNER_FIELDS = ["repo_owner", "owner", "username", "organization", "new_owner"];
const BODY_TARGET_FIELDS = [...OWNER_FIELDS, "uid", "team_ids"];

/** Path parameter names of a route path, `{branch*}` giving `branch`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([\w-]+)\*?\}/g)].map((m) => m[1] as string);
}

/** Substitutes values into a route path; a rest-of-path parameter keeps its slashes. */
export function fillPath(path: string, values: Readonly<Record<string, string>>): string {
  return path.replace(/\{([\w-]+)(\*?)\}/g, (_, name: string, rest: string) => {
    const value = values[name] ?? "";
    return rest ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value);
  });
}

function scenesFor(route: AnyRoute, world: World): Scene[] {
  const params = pathParams(route.path);
  const has = (p: string) => params.includes(p);
  const victim = world.victim.name;
  const repoScene = (r: World["repos"][number]): Scene => ({
    values: {
      owner: r.owner,
      repo: r.name,
      // `/repos/{template_owner}/{template_repo}/generate` names its repository so.
      template_owner: r.owner,
      template_repo: r.name,
      org: r.owner,
      id: route.path.includes("/hooks/{id}")
        ? world.hooks.repo[r.id]
        : route.path.endsWith("/keys/{id}")
          ? world.keys.deploy[r.id]
          : route.path.includes("/tag_protections/{id}")
            ? r.tagProtectionId
            : route.path.includes("/releases/{id}")
              ? r.releaseId
              : route.path.includes("/reviews/{id}")
                ? r.reviewId
                : route.path.includes("/teams/{id}")
                  ? r.teamId
                  : route.path.includes("/labels/{id}")
                    ? r.labelId
                    : route.path.includes("/milestones/{id}")
                      ? r.milestoneId
                      : route.path.includes("/comments/{id}")
                        ? r.commentId
                        : route.path.includes("/times/{id}")
                          ? r.timeId
                          : r.id,
      sha: route.path.includes("/blobs/")
        ? r.readmeBlob
        : route.path.includes("/git/tags/")
          ? r.annotatedTag
          : route.path.endsWith("/commits/{sha}/pull")
            ? r.mergeCommit
            : r.commit,
      collaborator: world.friend,
      basehead: `main...${r.pullHead}`,
      comment: r.reviewCommentId,
      attachment_id: route.path.includes("/releases/")
        ? r.releaseAssetId
        : route.path.includes("/comments/")
          ? r.commentAttachmentId
          : r.issueAttachmentId,
      artifact_id: r.artifactId,
      run: 1,
      run_id: world.actionRuns[r.id],
      ...(route.path.includes("/push_mirrors/") ? { name: FIXTURE_PUSH_MIRROR } : {}),
      // A private fork of the repository: `/sync_fork` answers 400 for a repository that is none.
      ...(route.path.includes("/sync_fork") && r.fork ? { repo: r.fork } : {}),
      ...(route.path.includes("/pulls/")
        ? {
            index: route.path.endsWith("/merge") && route.method === "get" ? r.mergedPullIndex : r.pullIndex,
            base: "main",
            head: r.pullHead,
          }
        : {}),
    },
    targets: [r.name, r.owner],
    owner: { name: r.owner, id: ownerId(r.owner) },
    ...(r.teamId ? { teamId: r.teamId } : {}),
  });
  const ownerId = (name: string) =>
    [...world.orgs, world.victim, world.privateUser].find((o) => o.name === name)?.id ?? 0;
  const teamRepo = (teamId: number) => world.repos.find((r) => r.teamId === teamId);
  if (has("id") && route.path.includes("/teams/{id}"))
    return world.orgs.map((o) => ({
      values: { id: o.teamId, org: o.name, repo: teamRepo(o.teamId)?.name, username: o.teamMember },
      targets: [o.teamName, o.name, ...(has("repo") ? [teamRepo(o.teamId)?.name ?? ""] : [])],
      owner: { name: o.name, id: o.id },
      teamId: o.teamId,
    }));
  // The package API (/packages/{owner}/…): each fixture package; the owner's list only names the owner.
  if (route.path.startsWith("/packages/{owner}"))
    return world.packages.map((p) => ({
      values: { owner: p.owner, type: p.type, name: p.name, version: p.version, repo_name: p.repoName },
      targets: route.path === "/packages/{owner}" ? [p.owner] : [p.name, p.owner],
      owner: { name: p.owner, id: ownerId(p.owner) },
    }));
  // A repository's teams exist only for organizations' repositories a team covers.
  if (has("owner") && has("repo") && route.path.startsWith("/repos/{owner}/{repo}/teams"))
    return world.repos.flatMap((r) => {
      const org = world.orgs.find((o) => o.teamId !== undefined && o.teamId === r.teamId);
      if (!org) return [];
      const scene = repoScene(r);
      return [
        {
          ...scene,
          values: { ...scene.values, team: org.teamName },
          targets: [...scene.targets, org.teamName],
        },
      ];
    });
  if (route.path === "/licenses/{name}") return [{ values: { name: "MIT" }, targets: [] }];
  if (route.path === "/gitignore/templates/{name}") return [{ values: { name: "Go" }, targets: [] }];
  if (route.path === "/label/templates/{name}") return [{ values: { name: "Default" }, targets: [] }];
  // Also the outsider's own fork of a repository it may not read: the parent must not show.
  if (route.path.includes("/sync_fork")) {
    const { owner, name } = world.hiddenParentFork;
    return [...world.repos.map(repoScene), { values: { owner, repo: name }, targets: [] }];
  }
  if (has("owner") && has("repo")) return world.repos.map(repoScene);
  if (has("template_owner") && has("template_repo")) return world.repos.map(repoScene);
  if (has("org"))
    return world.orgs.map((o) => ({
      values: {
        org: o.name,
        id: route.path.includes("/hooks/{id}")
          ? world.hooks.org[o.name]
          : route.path.includes("/labels/{id}")
            ? o.labelId
            : o.teamId,
        repo: teamRepo(o.teamId)?.name,
        username: victim,
      },
      targets: [o.name],
      owner: { name: o.name, id: o.id },
      teamId: o.teamId,
    }));
  // The site admin's own hook and a system hook: nobody else may see or change either.
  if (route.path.startsWith("/user/hooks/{id}") || route.path.startsWith("/admin/hooks/{id}")) {
    const hook = route.path.startsWith("/user/") ? world.hooks.user : world.hooks.admin;
    return [
      {
        values: { id: hook.id },
        targets: [hook.target],
        owner: { name: world.admin.name, id: world.admin.id },
      },
    ];
  }
  // The site admin's own SSH and GPG keys: nobody else may see or delete them.
  if (route.path === "/user/keys/{id}" || route.path === "/user/gpg_keys/{id}") {
    const key = route.path === "/user/keys/{id}" ? world.keys.ssh : world.keys.gpg;
    return [
      {
        values: { id: key.id },
        targets: [key.target],
        owner: { name: world.admin.name, id: world.admin.id },
      },
    ];
  }
  if (route.path.startsWith("/user/applications/oauth2/{id}"))
    return [
      {
        values: { id: world.oauth2App.id },
        targets: [world.oauth2App.target],
        owner: { name: world.admin.name, id: world.admin.id },
      },
    ];
  if (has("id"))
    return world.repos.map((r) => ({
      values: { id: route.path.startsWith("/notifications/threads/") ? r.notificationId : r.id },
      targets: [r.name],
      owner: { name: r.owner, id: ownerId(r.owner) },
    }));
  const owners = [
    ...world.orgs.map((o) => ({ name: o.name, id: o.id })),
    { name: world.privateUser.name, id: world.privateUser.id },
    { name: victim, id: world.victim.id },
  ];
  if (has("username"))
    return owners.map((o) => ({ values: { username: o.name }, targets: [o.name], owner: o }));
  const bodyEntries = bodyKeys(route);
  if (BODY_TARGET_FIELDS.some((k) => bodyEntries.includes(k)))
    return owners.map((o) => ({ values: {}, targets: [o.name], owner: o, teamId: world.orgs[0]?.teamId }));
  return [{ values: {}, targets: [] }];
}

function bodyKeys(route: AnyRoute): string[] {
  const entries = route.body?.entries ?? route.body?.wrapped?.entries;
  return entries ? Object.keys(entries) : [];
}

/** Values for parameters every scene shares. */
function commonValue(name: string, world: World): string | undefined {
  const common: Record<string, string> = {
    branch: "main",
    ref: "main",
    filepath: "README.md",
    archive: "main.zip",
    index: "1",
    tag: "v1",
    name: "main",
    token: String(world.victimTokenId),
    username: world.victim.name,
    user: world.victim.name,
    // Every fixture owner follows the site admin (social-fixture.ts).
    target: world.admin.name,
    position: "1",
    diffType: "diff",
    collaborator: world.friend,
    quotarule: world.quotaRule,
    quotagroup: world.quotaGroup,
    secretname: "FIXTURE_SECRET",
    variablename: "FIXTURE_VARIABLE",
    run_id: "1",
    workflowname: "ci.yml",
    // Every fixture repository has a wiki page Home (world.ts).
    pageName: "Home",
  };
  return common[name];
}

/**
 * The requests that aim a route at each private target of the fixture: path parameters from
 * the path's shape, a valid body from its schema with owner-like fields pointed at the target.
 */
export function instancesFor(route: AnyRoute, world: World): Instance[] {
  return scenesFor(route, world).map((scene) => {
    const unknownParams: string[] = [];
    const values: Record<string, string> = {};
    for (const p of pathParams(route.path)) {
      const v = scene.values[p] ?? commonValue(p, world);
      if (v === undefined) unknownParams.push(p);
      if (p === "ref" && route.path.includes("/git/refs/")) values[p] = "heads/main";
      values[p] ??= v === undefined ? "1" : String(v);
    }
    const targets = [...scene.targets];
    const otherOrg = world.orgs.find((o) => o.name !== scene.owner?.name)?.name ?? "";
    const repo = world.repos.find((r) => r.name === values.repo);
    const hints: FieldHints = (key, required) => {
      if (scene.owner && OWNER_FIELDS.includes(key)) {
        const name = key === "new_owner" ? otherOrg : scene.owner.name;
        targets.push(name);
        return name;
      }
      if (key === "uid" && scene.owner?.id) return scene.owner.id;
      if (key === "team_ids") {
        const team = world.orgs.find((o) => o.name === otherOrg);
        return team ? [team.teamId] : undefined;
      }
      if (key === "sha" && repo) return repo.readmeBlob;
      if (key === "target" || key === "old_ref_name") return "main";
      if (key === "path") return `${freshName("f")}.txt`;
      if (key === "emails") return [`${freshName("e")}@example.com`];
      if (key === "units") return ["repo.code"];
      if (key === "password") return "password-1234";
      if (key === "limit") return 1000;
      if (key === "subjects") return ["size:all"];
      if (key === "clone_addr") return world.cloneUrl;
      // Fresh names only where required: an optional `name` renames what a PATCH targets.
      if (["tag_name", "new_branch_name", "branch_name", "repo_name"].includes(key)) return freshName();
      if (key === "name" && required) return freshName();
      return undefined;
    };
    let inputIssue: string | undefined;
    let body: unknown;
    if (route.body) {
      const sampled = sampleValid(route.body, hints);
      if (sampled.ok) body = sampled.value;
      else inputIssue = `body: ${sampled.issue}`;
    }
    let query = "";
    if (route.query) {
      const sampled = sampleValid(route.query, (key) => {
        if (key === "limit") return "50";
        if (key === "uid" && scene.owner?.id) return String(scene.owner.id);
        if (key === "subject") return "size:all";
        if (key === "ref" && route.path.includes("/editorconfig/")) return "styled";
        return undefined;
      });
      if (sampled.ok) query = new URLSearchParams(sampled.value as Record<string, string>).toString();
      else inputIssue = `query: ${sampled.issue}`;
    }
    return {
      route,
      method: route.method.toUpperCase(),
      path: fillPath(route.path, values) + (query ? `?${query}` : ""),
      ...(body !== undefined ? { body } : {}),
      targets: [...new Set(targets.filter(Boolean))],
      unknownParams,
      ...(inputIssue ? { inputIssue } : {}),
    };
  });
}
