import type { AnyRoute } from "../../src/route.js";
import type { TestApp } from "../support.js";
import { zipOf } from "../zip-fixture.js";
import type { RawCaller, RawRequest } from "./raw-caller.js";

/** What the fuzzer's requests aim at (its owner's repository, team, organization, tokens) and its callers. */
export interface Fixture {
  readonly values: Readonly<Record<string, string>>;
  readonly actors: Readonly<Record<string, RawRequest["credential"]>>;
}

export async function buildFixture(t: TestApp, call: RawCaller): Promise<Fixture> {
  const admin = await t.user({ admin: true, name: "fz-admin" });
  const owner = await t.user({ name: "fz-owner" });
  const friend = await t.user({ name: "fz-friend" });
  await t.user({ name: "fz-renamed" }); // the account adminRenameUser may rename (not the owner)
  const as = { token: owner.token };
  const must = async (req: RawRequest) => {
    const res = await call(req);
    if (res.status >= 300) throw new Error(`fixture: ${req.method} ${req.path} → ${res.status} ${res.text}`);
    return res;
  };
  await must({
    method: "POST",
    path: "/user/repos",
    credential: as,
    body: { name: "fz-repo", auto_init: true },
  });
  await must({ method: "POST", path: "/orgs", credential: as, body: { username: "fz-org" } });
  // The organization renameOrg may rename (not the one the other routes aim at).
  await must({ method: "POST", path: "/orgs", credential: as, body: { username: "fz-renamed-org" } });
  const team = await must({
    method: "POST",
    path: "/orgs/fz-org/teams",
    credential: as,
    body: { name: "fz-team", permission: "read", units: ["repo.code"] },
  });
  await must({
    method: "POST",
    path: "/orgs/fz-org/repos",
    credential: as,
    body: { name: "fz-orepo", auto_init: true },
  });
  const repo = await must({ method: "GET", path: "/repos/fz-owner/fz-repo", credential: as });
  const branch = await must({ method: "GET", path: "/repos/fz-owner/fz-repo/branches/main", credential: as });
  await must({
    method: "PUT",
    path: "/repos/fz-owner/fz-repo/collaborators/fz-friend",
    credential: as,
    body: { permission: "read" },
  });
  await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/tags",
    credential: as,
    body: { tag_name: "v1" },
  });
  await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/branch_protections",
    credential: as,
    body: { branch_name: "main" },
  });
  // A pull request (#1, the repository has no issues), so the pull request handlers are reached.
  await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/contents/topic.txt",
    credential: as,
    body: { content: Buffer.from("topic\n").toString("base64"), new_branch: "fz-topic" },
  });
  await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/pulls",
    credential: as,
    body: { head: "fz-topic", base: "main", title: "fz-pull" },
  });
  // A review of it with a line comment, so the review handlers are reached.
  const review = await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/pulls/1/reviews",
    credential: as,
    body: {
      event: "PENDING",
      body: "fz-review",
      comments: [{ path: "topic.txt", body: "fz-line", new_position: 1 }],
    },
  });
  const reviewComments = await must({
    method: "GET",
    path: `/repos/fz-owner/fz-repo/pulls/1/reviews/${review.json.id}/comments`,
    credential: as,
  });
  // An Actions artifact of run 1, so the artifact handlers are reached (a raw zip: the caller sends text).
  const artifact = await t.app.request(
    "http://kiln.test/api/v1/repos/fz-owner/fz-repo/actions/runs/1/artifacts?name=fz-artifact",
    {
      method: "POST",
      headers: { Authorization: `token ${owner.token}`, "Content-Type": "application/zip" },
      body: zipOf({ "fz.txt": "fz\n" }),
    },
  );
  if (artifact.status !== 201) throw new Error(`fixture: artifact → ${artifact.status}`);
  // A generic package with one file, so the package handlers are reached.
  const pkg = await t.app.request("http://kiln.test/api/packages/fz-owner/generic/fz-pkg/1.0.0/fz.bin", {
    method: "PUT",
    headers: { Authorization: `token ${owner.token}` },
    body: "fz package",
  });
  if (pkg.status !== 201) throw new Error(`fixture: package → ${pkg.status}`);
  // A release with an asset, and files of the pull request and of a comment on it, so
  // the release and attachment handlers are reached.
  const release = await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/releases",
    credential: as,
    body: { tag_name: "v1", name: "fz-release" },
  });
  const comment = await must({
    method: "POST",
    path: "/repos/fz-owner/fz-repo/issues/1/comments",
    credential: as,
    body: { body: "fz-comment" },
  });
  const fzUpload = async (path: string) => {
    const res = await t.app.request(`http://kiln.test/api/v1/repos/fz-owner/fz-repo${path}`, {
      method: "POST",
      headers: { Authorization: `token ${owner.token}`, "Content-Type": "multipart/form-data; boundary=fz" },
      body: '--fz\r\nContent-Disposition: form-data; name="attachment"; filename="fz.txt"\r\n\r\nfz\r\n--fz--\r\n',
    });
    if (res.status !== 201) throw new Error(`fixture: upload to ${path} → ${res.status}`);
    return String(((await res.json()) as { id: number }).id);
  };
  const releaseAssetId = await fzUpload(`/releases/${release.json.id}/assets`);
  const issueAttachmentId = await fzUpload("/issues/1/assets");
  const commentAttachmentId = await fzUpload(`/issues/comments/${comment.json.id}/assets`);
  const adminCred = { token: admin.token };
  await must({
    method: "POST",
    path: "/admin/quota/rules",
    credential: adminCred,
    body: { name: "fz-rule", limit: 1000, subjects: ["size:all"] },
  });
  await must({
    method: "POST",
    path: "/admin/quota/groups",
    credential: adminCred,
    body: { name: "fz-group" },
  });
  const tokens = await must({
    method: "GET",
    path: "/users/fz-owner/tokens",
    credential: { basic: owner.basic },
  });
  return {
    values: {
      owner: "fz-owner",
      username: "fz-owner",
      repo: "fz-repo",
      org: "fz-org",
      collaborator: friend.name,
      teamId: String(team.json.id),
      repoId: String(repo.json.id),
      sha: branch.json.commit.id,
      branch: "main",
      ref: "main",
      filepath: "README.md",
      tag: "v1",
      name: "main",
      token: String(tokens.json[0].id),
      quotarule: "fz-rule",
      quotagroup: "fz-group",
      type: "generic",
      version: "1.0.0",
      repo_name: "fz-repo",
      index: "1",
      releaseId: String(release.json.id),
      commentId: String(comment.json.id),
      releaseAssetId,
      issueAttachmentId,
      commentAttachmentId,
      base: "main",
      head: "fz-topic",
      diffType: "diff",
      reviewId: String(review.json.id),
      comment: String(reviewComments.json[0].id),
      artifact_id: String(((await artifact.json()) as { id: number }).id),
      run: "1",
    },
    actors: { admin: adminCred, user: as, anonymous: null },
  };
}

export function validValue(route: AnyRoute, param: string, f: Fixture): string {
  if (param === "id" && route.path.includes("/reviews/{id}")) return f.values.reviewId ?? "1";
  if (param === "id" && route.path.includes("/releases/{id}")) return f.values.releaseId ?? "1";
  if (param === "id" && route.path.includes("/issues/comments/{id}")) return f.values.commentId ?? "1";
  if (param === "attachment_id")
    return (
      (route.path.includes("/releases/")
        ? f.values.releaseAssetId
        : route.path.includes("/comments/")
          ? f.values.commentAttachmentId
          : f.values.issueAttachmentId) ?? "1"
    );
  if (param === "id")
    return route.path.includes("/teams/") ? (f.values.teamId ?? "1") : (f.values.repoId ?? "1");
  if (param === "ref" && route.path.includes("/git/refs/")) return "heads/main";
  if (param === "name" && route.path.startsWith("/packages/")) return "fz-pkg";
  if (param === "repo" && route.path.includes("/teams/")) return "fz-orepo";
  if (param === "owner" && route.path.includes("/teams/")) return "fz-org";
  if (param === "username" && route.path.endsWith("/rename")) return "fz-renamed";
  if (param === "org" && route.path.endsWith("/rename")) return "fz-renamed-org";
  // `/repos/{template_owner}/{template_repo}/generate` names its repository so.
  if (param === "template_owner") return f.values.owner ?? "1";
  if (param === "template_repo") return f.values.repo ?? "1";
  return f.values[param] ?? "1";
}
