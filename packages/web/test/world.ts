import type { User } from "@kiln/domain";
import { actorFor, type Services } from "@kiln/service";
import type { WebTestApp } from "./support.js";

/** The visitors the page-access property test sends (cookies carry no scopes: `public-only` is no cookie's). */
export const VISITORS = ["anonymous", "outsider", "restricted"] as const;
export type Visitor = (typeof VISITORS)[number];

/** Something a visitor must not learn exists: its name must not show, and its page is 404. */
export interface Secret {
  readonly name: string;
  readonly hiddenFrom: ReadonlySet<Visitor>;
}

/** A repository of the world, by owner and name. */
export interface WorldRepo {
  readonly owner: string;
  readonly name: string;
}

/** The fixture: accounts and repositories of every visibility, and who may not see which. */
export interface World {
  readonly admin: User;
  readonly victim: User;
  readonly visitors: Readonly<Record<Exclude<Visitor, "anonymous">, User>>;
  readonly accounts: readonly string[];
  readonly orgs: readonly string[];
  readonly repos: readonly WorldRepo[];
  readonly secrets: readonly Secret[];
  /** The issue and the pull request of each repository (see {@link addThreads}). */
  readonly threads: readonly WorldThreads[];
  /**
   * History pages: each repository's head commit of `main`, and the blob of its README.md there
   * (for `/raw/blob/{sha}`), by `owner/name`.
   */
  readonly history: {
    readonly heads: ReadonlyMap<string, string>;
    readonly readmes: ReadonlyMap<string, string>;
  };
}

/** The numbers of a repository's issue "worldissue" and pull request "worldpull". */
export interface WorldThreads extends WorldRepo {
  readonly issue: number;
  readonly pull: number;
}

const ALL: ReadonlySet<Visitor> = new Set(VISITORS);
const only = (...v: Visitor[]): ReadonlySet<Visitor> => new Set(v);

async function repo(services: Services, doer: User, owner: User, name: string, isPrivate: boolean) {
  await services.repositories.create(doer, owner, {
    name,
    private: isPrivate,
    autoInit: true,
    description: `${name} description`,
  });
}

async function org(services: Services, doer: User, name: string, visibility: User["visibility"]) {
  return services.orgs.create(doer, name, { visibility, description: `${name} description` });
}

/**
 * Builds the world through the services: a public user (the victim) with a public and a private
 * repository, stars, follows and a notification about private things; a private and a limited
 * user; a private, a limited and a public organization with teams, private repositories and
 * members. Names are distinct and none is part of another, so a leak is found by its name.
 */
export async function buildWorld(t: WebTestApp): Promise<World> {
  const s = t.services;
  const admin = await t.user({ name: "site-admin", admin: true });
  const victim = await t.user({ name: "victim" });
  const outsider = await t.user({ name: "outsider" });
  const restricted = await t.user({ name: "restricted", restricted: true });
  const friend = await t.user({ name: "friend" });
  const hiddenUser = await t.user({ name: "zhiddenuser", visibility: "private" });
  const limitedUser = await t.user({ name: "zlimiteduser", visibility: "limited" });

  await repo(s, victim, victim, "victim-pub", false);
  await repo(s, victim, victim, "zsecretrepo", true);
  await repo(s, hiddenUser, hiddenUser, "zhiddenuserrepo", false);
  await repo(s, limitedUser, limitedUser, "zlimiteduserrepo", false);

  const hiddenOrg = await org(s, victim, "zhiddenorg", "private");
  const limitedOrg = await org(s, victim, "zlimitedorg", "limited");
  const openOrg = await org(s, victim, "open-org", "public");
  await repo(s, victim, hiddenOrg, "zhiddenorgrepo", false);
  await repo(s, victim, limitedOrg, "zlimitedorgrepo", false);
  await repo(s, victim, openOrg, "open-org-pub", false);
  await repo(s, victim, openOrg, "zopenorgsecret", true);
  const openTeam = await s.teams.create(openOrg, {
    name: "zopenorgteam",
    permission: "read",
    units: ["repo.code"],
  });
  await s.teams.addMember(openTeam, friend, victim);
  const hiddenTeam = await s.teams.create(hiddenOrg, {
    name: "zhiddenorgteam",
    permission: "read",
    units: ["repo.code"],
  });
  await s.teams.addMember(hiddenTeam, friend, victim);

  // What the victim's lists would show others if they did not filter: a starred private
  // repository, a private user followed and following, and a notification about a private issue.
  const victimActor = actorFor(victim);
  await s.stars.set(await s.access.repo(victimActor, "victim", "zsecretrepo"), true);
  await s.stars.set(await s.access.repo(actorFor(hiddenUser), "zhiddenuser", "zhiddenuserrepo"), true);
  await s.follows.set(victimActor, hiddenUser, true);
  await s.follows.set(actorFor(hiddenUser), victim, true);
  await s.follows.set(actorFor(outsider), victim, true);
  const secretRepo = await s.access.repo(victimActor, "victim", "zsecretrepo");
  await s.collaborators.add(secretRepo.repo, friend, "write", victim);
  await s.issues.create(await s.access.repo(actorFor(friend), "victim", "zsecretrepo"), {
    title: "zsecretissue",
  });

  const repos: WorldRepo[] = [
    { owner: "victim", name: "victim-pub" },
    { owner: "victim", name: "zsecretrepo" },
    { owner: "zhiddenuser", name: "zhiddenuserrepo" },
    { owner: "zlimiteduser", name: "zlimiteduserrepo" },
    { owner: "zhiddenorg", name: "zhiddenorgrepo" },
    { owner: "zlimitedorg", name: "zlimitedorgrepo" },
    { owner: "open-org", name: "open-org-pub" },
    { owner: "open-org", name: "zopenorgsecret" },
  ];
  const threads = await addThreads(s, repos, { zhiddenuser: hiddenUser, zlimiteduser: limitedUser }, victim);
  const history = await historyFixture(t, threads);
  await releasesAndWikis(s, admin, repos);

  return {
    history,
    admin,
    victim,
    visitors: { outsider, restricted },
    accounts: ["victim", "outsider", "zhiddenuser", "zlimiteduser", "zhiddenorg", "zlimitedorg", "open-org"],
    orgs: ["zhiddenorg", "zlimitedorg", "open-org"],
    repos,
    threads,
    secrets: [
      { name: "zsecretrepo", hiddenFrom: ALL },
      { name: "zsecretissue", hiddenFrom: ALL },
      { name: "zhiddenuser", hiddenFrom: ALL },
      { name: "zhiddenuserrepo", hiddenFrom: ALL },
      { name: "zhiddenorg", hiddenFrom: ALL },
      { name: "zhiddenorgrepo", hiddenFrom: ALL },
      { name: "zhiddenorgteam", hiddenFrom: ALL },
      { name: "zopenorgsecret", hiddenFrom: ALL },
      { name: "zopenorgteam", hiddenFrom: ALL },
      // Limited accounts are for signed-in users; restricted users see no organization they are
      // not in and no repository they were not given.
      { name: "victim-pub", hiddenFrom: only("restricted") },
      { name: "open-org", hiddenFrom: only("restricted") },
      { name: "zlimiteduser", hiddenFrom: only("anonymous") },
      { name: "zlimiteduserrepo", hiddenFrom: only("anonymous", "restricted") },
      { name: "zlimitedorg", hiddenFrom: only("anonymous", "restricted") },
      { name: "zlimitedorgrepo", hiddenFrom: only("anonymous", "restricted") },
    ],
  };
}

/**
 * Gives every repository an issue ("worldissue", with a comment) and a pull request ("worldpull",
 * from a branch "worldtopic"), made by its owner (the victim for the organizations'), so the issue
 * and pull request pages have something to show. The titles are no secret: a hidden repository's
 * threads are hidden with it.
 */
async function addThreads(
  s: Services,
  repos: readonly WorldRepo[],
  owners: Readonly<Record<string, User>>,
  fallback: User,
): Promise<WorldThreads[]> {
  const out: WorldThreads[] = [];
  for (const r of repos) {
    const doer = owners[r.owner] ?? fallback;
    const access = await s.access.repo(actorFor(doer), r.owner, r.name);
    await s.files.changeFiles(
      access.repo,
      doer,
      [{ operation: "create", path: "topic.txt", content: new TextEncoder().encode("topic\n") }],
      { branch: "main", newBranch: "worldtopic", message: "worldtopic" },
    );
    const issue = await s.issues.create(access, { title: "worldissue", body: "The **world** issue." });
    await s.comments.create(access, issue.index, "A comment on the world issue.");
    const pull = await s.pulls.create(access, { head: "worldtopic", base: "main", title: "worldpull" });
    out.push({ ...r, issue: issue.index, pull: pull.issue.index });
  }
  return out;
}

/**
 * For the history pages: the head of `main` of every repository (whose pull request pages use
 * the world's "worldpull", see {@link addThreads}).
 */
async function historyFixture(t: WebTestApp, threads: readonly WorldThreads[]): Promise<World["history"]> {
  const s = t.services;
  const adminActor = actorFor((await s.users.findByName("site-admin")) as User);
  const heads = new Map<string, string>();
  const readmes = new Map<string, string>();
  for (const { owner, name } of threads) {
    const { repo } = await s.access.repo(adminActor, owner, name);
    const [head] = (await s.commits.get(repo, "main", { files: false, stat: false })).commits;
    if (head) heads.set(`${owner}/${name}`, head.sha);
    readmes.set(`${owner}/${name}`, (await s.contents.raw(repo, "README.md", "main")).sha);
  }
  return { heads, readmes };
}

/** The release every world repository has (with one asset), and its wiki's one page. */
export const WORLD_RELEASE = { tag: "v1.0", asset: "asset.txt", wikiPage: "Home" } as const;

/** Gives each repository a release tagged `v1.0` with an asset, and a wiki with a Home page. */
async function releasesAndWikis(s: Services, admin: User, repos: readonly WorldRepo[]): Promise<void> {
  for (const r of repos) {
    const access = await s.access.repo(actorFor(admin), r.owner, r.name);
    const release = await s.releases.create(access, admin, {
      tagName: WORLD_RELEASE.tag,
      note: "First **release**",
    });
    await s.attachments.upload(
      access,
      { releaseId: release.id },
      {
        name: WORLD_RELEASE.asset,
        body: (async function* () {
          yield new TextEncoder().encode("asset bytes");
        })(),
      },
    );
    await s.wikis.create(access.repo, admin, WORLD_RELEASE.wikiPage, {
      content: new TextEncoder().encode("Welcome to the wiki of this repository."),
    });
  }
}
