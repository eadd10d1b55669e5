import { randomBytes } from "node:crypto";
import type { TestApp } from "../support.js";
import { zipOf } from "../zip-fixture.js";
import { seedActions } from "./action-fixture.js";
import { seedHiddenParentFork } from "./fork-fixture.js";
import { seedHooks } from "./hook-fixture.js";
import { seedKeys } from "./key-fixture.js";
import { seedPushMirrors } from "./mirror-fixture.js";
import { seedOAuth2App } from "./oauth2-fixture.js";
import type { Credential, RawCaller, RawResult } from "./raw-caller.js";
import { seedSocial } from "./social-fixture.js";
import {
  ACTORS,
  type ActorName,
  type Secret,
  type World,
  type WorldOrg,
  type WorldPackage,
  type WorldRepo,
} from "./world-model.js";

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
    // Named after the repository, so that a leaked label or milestone shows its secret name.
    const label = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/labels`,
        credential: asVictimOrAdmin,
        body: { name: `${name}-label`, color: "ee0701" },
      }),
      "label",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/issues`,
        credential: asVictimOrAdmin,
        body: { title: `${name}-issue`, body: `about ${name}` },
      }),
      "issue",
    );
    const comment = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/issues/1/comments`,
        credential: asVictimOrAdmin,
        body: { body: `comment on ${name}` },
      }),
      "comment",
    );
    const time = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/issues/1/times`,
        credential: asVictimOrAdmin,
        body: { time: 60 },
      }),
      "tracked time",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/issues/1/reactions`,
        credential: asVictimOrAdmin,
        body: { content: "heart" },
      }),
      "reaction",
    );
    const milestone = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/milestones`,
        credential: asVictimOrAdmin,
        body: { title: `${name}-milestone` },
      }),
      "milestone",
    );
    const pullHead = "topic";
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/contents/topic.txt`,
        credential: asVictimOrAdmin,
        body: { content: Buffer.from(`topic of ${name}\n`).toString("base64"), new_branch: pullHead },
      }),
      "topic branch",
    );
    const pull = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/pulls`,
        credential: asVictimOrAdmin,
        body: { head: pullHead, base: "main", title: `${name}-pull`, body: `pull of ${name}` },
      }),
      "pull request",
    );
    const review = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/pulls/${pull.json.number}/reviews`,
        credential: asVictimOrAdmin,
        body: {
          event: "COMMENT",
          body: `review of ${name}`,
          comments: [{ path: "topic.txt", body: `line of ${name}`, new_position: 1 }],
        },
      }),
      "review",
    );
    const reviewComments = await ok(
      call({
        method: "GET",
        path: `/repos/${owner}/${name}/pulls/${pull.json.number}/reviews/${review.json.id}/comments`,
        credential: asVictimOrAdmin,
      }),
      "review comments",
    );
    // A merged one too, for the routes that answer only about merged pull requests.
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/contents/done.txt`,
        credential: asVictimOrAdmin,
        body: { content: Buffer.from("done\n").toString("base64"), new_branch: "done" },
      }),
      "done branch",
    );
    const merged = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/pulls`,
        credential: asVictimOrAdmin,
        body: { head: "done", base: "main", title: `${name}-merged-pull` },
      }),
      "pull request to merge",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/pulls/${merged.json.number}/merge`,
        credential: asVictimOrAdmin,
        body: { Do: "merge" },
      }),
      "merge",
    );
    const mergedPull = await ok(
      call({
        method: "GET",
        path: `/repos/${owner}/${name}/pulls/${merged.json.number}`,
        credential: asVictimOrAdmin,
      }),
      "merged pull request",
    );
    // An Actions artifact, uploaded as the raw zip (the raw caller sends only text bodies).
    const artifact = await t.app.request(
      `http://kiln.test/api/v1/repos/${owner}/${name}/actions/runs/1/artifacts?name=${name}-artifact`,
      {
        method: "POST",
        headers: { Authorization: `token ${admin.token}`, "Content-Type": "application/zip" },
        body: zipOf({ "report.txt": `artifact of ${name}\n` }),
      },
    );
    if (artifact.status !== 201) throw new Error(`fixture: artifact answered ${artifact.status}`);
    // A release on tag v1 with an asset, and files of the first issue and of its comment (their
    // names start with the repository's, so a leak shows), uploaded as multipart forms.
    const upload = async (path: string, filename: string) => {
      const boundary = "kilnfixture";
      const res = await t.app.request(`http://kiln.test/api/v1/repos/${owner}/${name}${path}`, {
        method: "POST",
        headers: {
          Authorization: `token ${admin.token}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
        },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\nfile of ${name}\n\r\n--${boundary}--\r\n`,
      });
      if (res.status !== 201) throw new Error(`fixture: upload to ${path} answered ${res.status}`);
      return ((await res.json()) as { id: number }).id;
    };
    const release = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/releases`,
        credential: asVictimOrAdmin,
        body: { tag_name: "v1", name: `${name}-release` },
      }),
      "release",
    );
    const releaseAssetId = await upload(`/releases/${release.json.id}/assets`, `${name}-asset.txt`);
    // A wiki page `Home` (its html_url names the repository, so a leak shows).
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/wiki/new`,
        credential: asVictimOrAdmin,
        body: { title: "Home", content_base64: Buffer.from(`wiki of ${name}\n`).toString("base64") },
      }),
      "wiki page",
    );
    // An annotated tag and a note on the main commit whose texts name the repository, and an
    // .editorconfig on the branch "styled" (for /git/tags, /git/notes and /editorconfig).
    const annotated = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/tags`,
        credential: asVictimOrAdmin,
        body: { tag_name: `${name}-annotated`, target: "main", message: `tag of ${name}` },
      }),
      "annotated tag",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/git/notes/${branch.json.commit.id}`,
        credential: asVictimOrAdmin,
        body: { message: `note of ${name}` },
      }),
      "note",
    );
    await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/contents/.editorconfig`,
        credential: asVictimOrAdmin,
        body: {
          content: Buffer.from("[*]\nindent_style = space\n").toString("base64"),
          new_branch: "styled",
        },
      }),
      "editorconfig",
    );
    // A tag protection whose pattern names the repository, so a leak of it shows.
    const tagProtection = await ok(
      call({
        method: "POST",
        path: `/repos/${owner}/${name}/tag_protections`,
        credential: asVictimOrAdmin,
        body: { name_pattern: `${name}-v*`, whitelist_usernames: [admin.name] },
      }),
      "tag protection",
    );
    const issueAttachmentId = await upload("/issues/1/assets", `${name}-issue-file.txt`);
    const commentAttachmentId = await upload(
      `/issues/comments/${comment.json.id}/assets`,
      `${name}-comment-file.txt`,
    );
    return {
      owner,
      name,
      id: repo.json.id as number,
      releaseId: release.json.id as number,
      releaseAssetId,
      tagProtectionId: tagProtection.json.id as number,
      annotatedTag: annotated.json.id as string,
      issueAttachmentId,
      commentAttachmentId,
      artifactId: ((await artifact.json()) as { id: number }).id,
      pullIndex: pull.json.number as number,
      mergedPullIndex: merged.json.number as number,
      mergeCommit: mergedPull.json.merge_commit_sha as string,
      reviewId: review.json.id as number,
      reviewCommentId: reviewComments.json[0].id as number,
      pullHead,
      commit: branch.json.commit.id as string,
      readmeBlob: readme.json.sha as string,
      labelId: label.json.id as number,
      milestoneId: milestone.json.id as number,
      commentId: comment.json.id as number,
      timeId: time.json.id as number,
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
    const label = await ok(
      call({
        method: "POST",
        path: `/orgs/${name}/labels`,
        credential: asVictim,
        body: { name: `${name}-label`, color: "00aabb" },
      }),
      "org label",
    );
    return {
      key,
      name,
      id: org.json.id as number,
      teamId: team.json.id as number,
      teamName,
      teamMember: member,
      labelId: label.json.id as number,
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
    // A fork of it beside it, made by the site admin, for the `/sync_fork` routes.
    const ownerRow = await t.services.users.getByName(owner);
    const forkName = `${made.name}-fork`;
    await t.services.forks.fork(
      await t.services.users.getByName(admin.name),
      (await t.services.repositories.findByName(ownerRow, made.name)) as NonNullable<
        Awaited<ReturnType<typeof t.services.repositories.findByName>>
      >,
      ownerRow,
      ownerRow,
      forkName,
    );
    const repo: WorldRepo = { key, ...made, fork: forkName, ...(org ? { teamId: org.teamId } : {}) };
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

  // Packages: one of each private or limited owner, and one of the victim linked to
  // its private repository (hidden as that repository is). Uploaded through the generic registry.
  const packages: WorldPackage[] = [];
  const addPackage = async (
    key: string,
    owner: string,
    token: string,
    repoName: string,
    hiddenFrom: ReadonlySet<ActorName>,
    link: boolean,
  ) => {
    const name = secretName(key);
    const put = await t.app.request(
      `http://kiln.test/api/packages/${owner}/generic/${name}/1.0.0/${name}.bin`,
      {
        method: "PUT",
        headers: { Authorization: `token ${token}` },
        body: `bytes of ${name}`,
      },
    );
    if (put.status !== 201) throw new Error(`fixture: package ${owner}/${name} answered ${put.status}`);
    if (link)
      await ok(
        call({
          method: "POST",
          path: `/packages/${owner}/generic/${name}/-/link/${repoName}`,
          credential: { token },
        }),
        "link package",
      );
    const got = await ok(
      call({ method: "GET", path: `/packages/${owner}/generic/${name}/1.0.0`, credential: asVictimOrAdmin }),
      "read package",
    );
    packages.push({ key, owner, type: "generic", name, version: "1.0.0", repoName });
    secrets.push({ name, kind: "package", id: got.json.id as number, hiddenFrom });
  };
  const repoOf = (owner: string) => repos.find((r) => r.owner === owner)?.name ?? "";
  await addPackage("porgpkg", privOrg.name, victim.token, repoOf(privOrg.name), ALL, false);
  await addPackage("lorgpkg", limOrg.name, victim.token, repoOf(limOrg.name), LIMITED_HIDDEN, false);
  await addPackage("puserpkg", privateUser.name, privateUser.token, repoOf(privateUser.name), ALL, false);
  await addPackage("vlinkedpkg", victim.name, victim.token, vpriv.name, EXCEPT_COLLABORATOR, true);

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

  const socialRepos = await seedSocial(t, admin, victim, repos, [privOrg, limOrg, privateUser, victim]);
  const hooks = await seedHooks(t, admin, repos, [privOrg, limOrg]);
  await seedPushMirrors(t, repos);
  const keys = await seedKeys(t, admin, repos);
  const oauth2App = await seedOAuth2App(t, admin);
  const actionRuns = await seedActions(t, admin, repos, [privOrg, limOrg]);
  const kept = await seedHiddenParentFork(t, admin, victim, outsider, vpriv.name, EXCEPT_COLLABORATOR);
  secrets.push(kept.secret);

  return {
    admin,
    victim,
    victimPublicRepo,
    cloneUrl: `${gitBase ?? "https://example.invalid"}/${victim.name}/${victimPublicRepo}.git`,
    victimTokenId: tokens.json[0].id,
    friend: friend.name,
    privateUser,
    repos: socialRepos,
    orgs: [privOrg, limOrg],
    packages,
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
    hooks,
    keys,
    oauth2App,
    actionRuns,
    hiddenParentFork: kept.fork,
  };
}
