import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { silentLogger } from "@kiln/service";
import type { Hono } from "hono";
import { createApp } from "../../src/app.js";
import type { AppEnv } from "../../src/env.js";
import type { TestApp, TestUser } from "../support.js";

/** A response as the hostile tests inspect it. */
export interface RawResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: arbitrary JSON
  readonly json: any;
}

/** How a request authenticates. */
export type Credential = { token: string } | { basic: readonly [string, string] } | null;

export interface RawRequest {
  readonly method: string;
  /** Path under /api/v1 (or from the root with `root`), already percent-encoded where needed. */
  readonly path: string;
  /** The path is from the server's root (git and LFS), not under /api/v1. */
  readonly root?: boolean;
  readonly credential?: Credential;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Calls an app built without test-mode response validation, so statuses are the server's own. */
export type RawCaller = (req: RawRequest) => Promise<RawResult>;

/**
 * A second Hono app over the test app's services and settings, without `validateResponses`:
 * what a real server answers, not the test harness's check of the documentation.
 */
export function rawCaller(t: TestApp): RawCaller {
  const app: Hono<AppEnv> = createApp({ services: t.services, settings: t.settings, logger: silentLogger });
  return async (req) => {
    const headers: Record<string, string> = { ...req.headers };
    const cred = req.credential;
    if (cred && "token" in cred) headers.Authorization = `token ${cred.token}`;
    if (cred && "basic" in cred)
      headers.Authorization = `Basic ${Buffer.from(`${cred.basic[0]}:${cred.basic[1]}`).toString("base64")}`;
    let body = req.rawBody;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await app.request(`http://kiln.test${req.root ? "" : "/api/v1"}${req.path}`, {
      method: req.method.toUpperCase(),
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

/**
 * Serves the app (without response validation) on a loopback port, so a migration can clone a
 * fixture repository for real: then only an access check can stop a migration, not a DNS error.
 */
export async function serveLoopback(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp({ services: t.services, settings: t.settings, logger: silentLogger });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The hostile actors of the property test. */
export const ACTORS = ["anonymous", "outsider", "public-only", "collaborator", "restricted"] as const;
export type ActorName = (typeof ACTORS)[number];

/** A repository of the fixture and what a request about it needs. */
export interface WorldRepo {
  readonly key: string;
  readonly owner: string;
  readonly name: string;
  readonly id: number;
  readonly commit: string;
  readonly readmeBlob: string;
  /** A team of the owning organization that covers this repository, if any. */
  readonly teamId?: number;
  /** A user who may read it (collaborator), if any. */
  readonly collaborator?: string;
}

export interface WorldOrg {
  readonly key: string;
  readonly name: string;
  readonly id: number;
  readonly teamId: number;
  readonly teamName: string;
  /** A member of the team (and of the organization). */
  readonly teamMember: string;
}

/** Something an actor must not see, by name and id. */
export interface Secret {
  readonly name: string;
  readonly kind: "repo" | "org" | "user" | "team";
  readonly id: number;
  readonly hiddenFrom: ReadonlySet<ActorName>;
}

/** The property test's fixture: a victim with private things, and the hostile actors. */
export interface World {
  readonly admin: TestUser;
  readonly victim: TestUser;
  readonly victimPublicRepo: string;
  /** A clone URL of the victim's public repository that migrations can reach (or a dead one). */
  readonly cloneUrl: string;
  readonly victimTokenId: number;
  /** A read collaborator of every fixture repository (not an actor): the `{collaborator}` filler. */
  readonly friend: string;
  readonly privateUser: TestUser;
  readonly repos: readonly WorldRepo[];
  readonly orgs: readonly WorldOrg[];
  readonly quotaRule: string;
  readonly quotaGroup: string;
  readonly secrets: readonly Secret[];
  readonly actors: Readonly<Record<ActorName, { credential: Credential; name?: string }>>;
}

const ALL: ReadonlySet<ActorName> = new Set(ACTORS);
const EXCEPT_COLLABORATOR: ReadonlySet<ActorName> = new Set(ACTORS.filter((a) => a !== "collaborator"));
/** Limited organizations are hidden from anonymous callers, public-only tokens and restricted users. */
const LIMITED_HIDDEN: ReadonlySet<ActorName> = new Set<ActorName>(["anonymous", "public-only", "restricted"]);

async function ok(call: Promise<RawResult>, what: string, expected: number[] = [200, 201, 204]) {
  const res = await call;
  if (!expected.includes(res.status)) throw new Error(`fixture: ${what} answered ${res.status}: ${res.text}`);
  return res;
}

/**
 * Builds the fixture through the API: a victim with a private and a public repository, a
 * private and a limited organization (repositories, a team each), a private user with a
 * repository, a read collaborator, a restricted user and an outsider. Every private thing is
 * named `zz-secret-<kind>-<random>` so it can be searched for in any answer.
 */
export async function buildWorld(t: TestApp, call: RawCaller, gitBase?: string): Promise<World> {
  const tag = () => randomBytes(4).toString("hex");
  const secretName = (kind: string) => `zz-secret-${kind}-${tag()}`;
  const admin = await t.user({ admin: true, name: `admin-${tag()}` });
  const victim = await t.user({ name: `victim-${tag()}` });
  const outsider = await t.user({ name: `outsider-${tag()}` });
  const collaborator = await t.user({ name: `collab-${tag()}` });
  const restricted = await t.user({ name: `restricted-${tag()}` });
  const privateUser = await t.user({ name: secretName("puser"), visibility: "private" });
  await ok(
    call({
      method: "PATCH",
      path: `/admin/users/${restricted.name}`,
      credential: { token: admin.token },
      body: { restricted: true, login_name: restricted.name, source_id: 0 },
    }),
    "restrict user",
  );
  const victimEntity = await t.services.users.getByName(victim.name);
  const { secret: publicOnly } = await t.services.tokens.create(victimEntity, "public-only", [
    "public-only",
    "all",
  ]);
  const asVictim = { token: victim.token };
  const asVictimOrAdmin = { token: admin.token };

  const makeRepo = async (owner: string, name: string, isPrivate: boolean, cred: Credential) => {
    const path = owner === victim.name || owner === privateUser.name ? "/user/repos" : `/orgs/${owner}/repos`;
    await ok(
      call({ method: "POST", path, credential: cred, body: { name, auto_init: true, private: isPrivate } }),
      `create ${owner}/${name}`,
    );
    const repo = await ok(
      call({ method: "GET", path: `/repos/${owner}/${name}`, credential: asVictimOrAdmin }),
      "read repo",
    );
    const branch = await ok(
      call({ method: "GET", path: `/repos/${owner}/${name}/branches/main`, credential: asVictimOrAdmin }),
      "read branch",
    );
    const readme = await ok(
      call({
        method: "GET",
        path: `/repos/${owner}/${name}/contents/README.md`,
        credential: asVictimOrAdmin,
      }),
      "read README",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/tags`,
        credential: asVictimOrAdmin,
        body: { tag_name: "v1", target: "main" },
      }),
      "tag",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/branch_protections`,
        credential: asVictimOrAdmin,
        body: { branch_name: "main" },
      }),
      "protect main",
    );
    return {
      owner,
      name,
      id: repo.json.id as number,
      commit: branch.json.commit.id as string,
      readmeBlob: readme.json.sha as string,
    };
  };

  const makeOrg = async (key: string, visibility: "private" | "limited", member: string) => {
    const name = secretName(key);
    await ok(
      call({ method: "POST", path: "/orgs", credential: asVictim, body: { username: name, visibility } }),
      `create org ${name}`,
    );
    const org = await ok(call({ method: "GET", path: `/orgs/${name}`, credential: asVictim }), "read org");
    const teamName = secretName(`${key}team`);
    const team = await ok(
      call({
        method: "POST",
        path: `/orgs/${name}/teams`,
        credential: asVictim,
        body: { name: teamName, permission: "read", units: ["repo.code"] },
      }),
      "create team",
    );
    await ok(
      call({ method: "PUT", path: `/teams/${team.json.id}/members/${member}`, credential: asVictimOrAdmin }),
      "add team member",
    );
    await ok(
      call({ method: "PUT", path: `/orgs/${name}/public_members/${victim.name}`, credential: asVictim }),
      "publicize membership",
    );
    return {
      key,
      name,
      id: org.json.id as number,
      teamId: team.json.id as number,
      teamName,
      teamMember: member,
    };
  };

  const privOrg = await makeOrg("porg", "private", privateUser.name);
  const friend = await t.user({ name: `friend-${tag()}` });
  const limitedMember = await t.user({ name: `lmember-${tag()}` });
  const limOrg = await makeOrg("lorg", "limited", limitedMember.name);

  const repos: WorldRepo[] = [];
  const secrets: Secret[] = [];
  const addRepo = async (
    key: string,
    owner: string,
    isPrivate: boolean,
    cred: Credential,
    hiddenFrom: ReadonlySet<ActorName>,
    org?: WorldOrg,
  ) => {
    const made = await makeRepo(owner, secretName(key), isPrivate, cred);
    if (org)
      await ok(
        call({
          method: "PUT",
          path: `/teams/${org.teamId}/repos/${owner}/${made.name}`,
          credential: asVictim,
        }),
        "team repo",
      );
    await ok(
      call({
        method: "PUT",
        path: `/repos/${owner}/${made.name}/collaborators/${friend.name}`,
        credential: asVictimOrAdmin,
        body: { permission: "read" },
      }),
      "add friend",
    );
    const repo: WorldRepo = { key, ...made, ...(org ? { teamId: org.teamId } : {}) };
    repos.push(repo);
    secrets.push({ name: made.name, kind: "repo", id: made.id, hiddenFrom });
    return repo;
  };

  const vpriv = await addRepo("vpriv", victim.name, true, asVictim, EXCEPT_COLLABORATOR);
  await ok(
    call({
      method: "PUT",
      path: `/repos/${victim.name}/${vpriv.name}/collaborators/${collaborator.name}`,
      credential: asVictim,
      body: { permission: "read" },
    }),
    "add collaborator",
  );
  repos[0] = { ...vpriv, collaborator: collaborator.name };
  await addRepo("porgpriv", privOrg.name, true, asVictim, ALL, privOrg);
  await addRepo("porgpub", privOrg.name, false, asVictim, ALL, privOrg);
  await addRepo("lorgrepo", limOrg.name, false, asVictim, LIMITED_HIDDEN, limOrg);
  await addRepo("lorgpriv", limOrg.name, true, asVictim, ALL, limOrg);
  await addRepo("puserrepo", privateUser.name, false, { token: privateUser.token }, ALL);

  const victimPublicRepo = `pub-${tag()}`;
  await ok(
    call({
      method: "POST",
      path: "/user/repos",
      credential: asVictim,
      body: { name: victimPublicRepo, auto_init: true },
    }),
    "public repo",
  );

  secrets.push(
    { name: privOrg.name, kind: "org", id: privOrg.id, hiddenFrom: ALL },
    { name: privOrg.teamName, kind: "team", id: privOrg.teamId, hiddenFrom: ALL },
    { name: limOrg.name, kind: "org", id: limOrg.id, hiddenFrom: LIMITED_HIDDEN },
    { name: limOrg.teamName, kind: "team", id: limOrg.teamId, hiddenFrom: ALL },
    { name: privateUser.name, kind: "user", id: privateUser.id, hiddenFrom: ALL },
  );

  const tokens = await ok(
    call({ method: "GET", path: `/users/${victim.name}/tokens`, credential: { basic: victim.basic } }),
    "list tokens",
  );
  const quotaRule = `rule-${tag()}`;
  const quotaGroup = `group-${tag()}`;
  await ok(
    call({
      method: "POST",
      path: "/admin/quota/rules",
      credential: asVictimOrAdmin,
      body: { name: quotaRule, limit: 1000, subjects: ["size:all"] },
    }),
    "quota rule",
  );
  await ok(
    call({
      method: "POST",
      path: "/admin/quota/groups",
      credential: asVictimOrAdmin,
      body: { name: quotaGroup },
    }),
    "quota group",
  );

  return {
    admin,
    victim,
    victimPublicRepo,
    cloneUrl: `${gitBase ?? "https://example.invalid"}/${victim.name}/${victimPublicRepo}.git`,
    victimTokenId: tokens.json[0].id,
    friend: friend.name,
    privateUser,
    repos,
    orgs: [privOrg, limOrg],
    quotaRule,
    quotaGroup,
    secrets,
    actors: {
      anonymous: { credential: null },
      outsider: { credential: { token: outsider.token }, name: outsider.name },
      "public-only": { credential: { token: publicOnly }, name: victim.name },
      collaborator: { credential: { token: collaborator.token }, name: collaborator.name },
      restricted: { credential: { token: restricted.token }, name: restricted.name },
    },
  };
}

/**
 * What must survive every hostile request, read by the admin: each private repository (name,
 * visibility, branch head, tags, protections, collaborators), each organization (visibility,
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
