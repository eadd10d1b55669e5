import { createHmac } from "node:crypto";
import type { ForgeEvent } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookReceiver, type Received, startReceiver } from "../../../test/hook-receiver.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

describe.each(DIALECTS)("repository webhooks on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let receiver: HookReceiver;
  let failing: HookReceiver;
  let repoId: number;
  const repo = "hooked";
  const secret = "s3cret";

  beforeAll(async () => {
    t = await openTestApp(dialect, { webhook: { allowedHostList: "loopback", retryBackoff: 1 } });
    owner = await t.user();
    outsider = await t.user();
    // Fails twice, then accepts.
    failing = await startReceiver((n) => (n <= 2 ? 500 : 200));
    receiver = await startReceiver();
    const made = await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: repo, auto_init: true, private: true },
    });
    expect(made.status).toBe(201);
    repoId = made.json.id;
    t.services.webhooks.worker.start();
  });

  afterAll(async () => {
    await t.services.webhooks.worker.stop();
    await receiver.close();
    await failing.close();
    await t.close();
  });

  const hooks = () => `/repos/${owner.name}/${repo}/hooks`;
  const create = (body: unknown, token = owner.token) => t.call("POST", hooks(), { token, body });
  const record = (event: ForgeEvent) =>
    t.services.ctx.db.transaction().execute((trx) => t.services.ctx.events.record(trx, event));
  const base = () => ({ repoId, ownerId: owner.id, actorId: owner.id, at: new Date() });

  it("validates hooks as Forgejo (422 with its messages)", async () => {
    const cases: [unknown, string][] = [
      [{ type: "nope", config: { url: receiver.url, content_type: "json" } }, "Invalid hook type: nope"],
      [{ type: "forgejo", config: { content_type: "json" } }, "Missing config option: url"],
      [{ type: "forgejo", config: { url: receiver.url } }, "Missing config option: content_type"],
      [{ type: "forgejo", config: { url: receiver.url, content_type: "xml" } }, "Invalid content type"],
      [{ type: "forgejo", config: { url: "ftp://x", content_type: "json" } }, "Invalid url"],
      [
        { type: "forgejo", config: { url: receiver.url, content_type: "json" }, events: ["bogus"] },
        "Invalid event: bogus",
      ],
      [
        { type: "slack", config: { url: receiver.url, content_type: "json" } },
        "Missing config option: channel",
      ],
      [
        { type: "forgejo", config: { url: receiver.url, content_type: "json" }, branch_filter: "{a,b" },
        "Invalid branch filter: {a,b",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.status, message).toBe(422);
      expect(res.json.message).toBe(message);
    }
  });

  it("creates, shows, edits and deletes a hook in Forgejo's shape, never showing the secret", async () => {
    const res = await create({
      type: "gitea",
      config: { url: receiver.url, content_type: "json", secret },
      events: ["issues"],
      authorization_header: "Bearer xyz",
      active: true,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      type: "gitea",
      active: true,
      branch_filter: "",
      config: { url: receiver.url, content_type: "json", http_method: "POST" },
      authorization_header: "Bearer xyz",
      events: ["issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"],
    });
    expect(JSON.stringify(res.json)).not.toContain(secret);
    const id = res.json.id;
    const got = await t.call("GET", `${hooks()}/${id}`, { token: owner.token });
    expect(got.json).toEqual(res.json);
    const edited = await t.call("PATCH", `${hooks()}/${id}`, {
      token: owner.token,
      body: { events: ["push"], branch_filter: "main", active: false },
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      events: ["push"],
      branch_filter: "main",
      active: false,
      authorization_header: "",
    });
    const list = await t.call("GET", hooks(), { token: owner.token });
    expect(list.json.map((h: { id: number }) => h.id)).toContain(id);
    expect((await t.call("DELETE", `${hooks()}/${id}`, { token: owner.token })).status).toBe(204);
    expect((await t.call("GET", `${hooks()}/${id}`, { token: owner.token })).status).toBe(404);
  });

  it("hides a private repository's hooks (404) from outsiders and public-only tokens", async () => {
    expect((await t.call("GET", hooks(), { token: outsider.token })).status).toBe(404);
    expect(
      (await create({ type: "forgejo", config: { url: receiver.url, content_type: "json" } }, outsider.token))
        .status,
    ).toBe(404);
    const { secret: publicOnly } = await t.services.tokens.create(
      (await t.services.users.findById(owner.id))!,
      "public-only",
      ["all", "public-only"],
    );
    expect((await t.call("GET", hooks(), { token: publicOnly })).status).toBe(404);
    // Anonymous callers are asked to sign in first (the route needs a signed-in user).
    expect((await t.call("GET", hooks())).status).toBe(401);
  });

  it("delivers signed payloads with Forgejo's headers, by granular event and branch filter", async () => {
    const mk = async (events: string[], extra: Record<string, unknown> = {}) => {
      const res = await create({
        type: "forgejo",
        config: { url: `${receiver.url}?h=${events.join("+")}`, content_type: "json", secret },
        events,
        active: true,
        ...extra,
      });
      expect(res.status).toBe(201);
      return res.json.id as number;
    };
    const issuesHook = await mk(["issues_only"]);
    const commentHook = await mk(["issue_comment"]);
    const pushHook = await mk(["push", "create"], { branch_filter: "release/*" });
    const before = receiver.received.length;
    // An issue through the API fires `issues` (opened); the comment hook does not get it.
    const issue = await t.call("POST", `/repos/${owner.name}/${repo}/issues`, {
      token: owner.token,
      body: { title: "Broken" },
    });
    expect(issue.status).toBe(201);
    const [opened] = await receiver.waitFor(1, (r) => r.headers["x-forgejo-event-type"] === "issues");
    const got = opened as Received;
    expect(got.url).toBe("/hook?h=issues_only");
    expect(got.headers["x-forgejo-event"]).toBe("issues");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-forgejo-signature"]).toBe(sign(secret, got.body));
    expect(got.headers["x-gitea-signature"]).toBe(sign(secret, got.body));
    expect(got.headers["x-gogs-signature"]).toBe(sign(secret, got.body));
    expect(got.headers["x-hub-signature-256"]).toBe(`sha256=${sign(secret, got.body)}`);
    expect(got.headers["x-forgejo-delivery"]).toBe(got.headers["x-gitea-delivery"]);
    const payload = JSON.parse(got.body);
    expect(payload).toMatchObject({
      action: "opened",
      number: issue.json.number,
      issue: { id: issue.json.id, title: "Broken", state: "open" },
      repository: { id: repoId, full_name: `${owner.name}/${repo}`, private: true },
      sender: { login: owner.name },
    });
    // A comment recorded straight through the recorder reaches only the comment hook.
    const comment = await t.call(
      "POST",
      `/repos/${owner.name}/${repo}/issues/${issue.json.number}/comments`,
      {
        token: owner.token,
        body: { body: "me too" },
      },
    );
    expect(comment.status).toBe(201);
    const [commented] = await receiver.waitFor(
      1,
      (r) => r.headers["x-forgejo-event-type"] === "issue_comment",
    );
    expect((commented as Received).url).toBe("/hook?h=issue_comment");
    expect(JSON.parse((commented as Received).body)).toMatchObject({
      action: "created",
      is_pull: false,
      comment: { id: comment.json.id, body: "me too" },
      issue: { number: issue.json.number },
    });
    // Branch filter: a branch outside `release/*` is not delivered, one inside is.
    await record({ ...base(), type: "create", refType: "branch", ref: "feature/x", sha: "a".repeat(40) });
    await record({ ...base(), type: "create", refType: "branch", ref: "release/1.0", sha: "b".repeat(40) });
    const [created] = await receiver.waitFor(1, (r) => r.headers["x-forgejo-event-type"] === "create");
    expect(JSON.parse((created as Received).body)).toMatchObject({
      ref: "refs/heads/release/1.0",
      ref_type: "branch",
      sha: "b".repeat(40),
      repository: { id: repoId },
    });
    // The test delivery: a push payload of the default branch's last commit, to that hook only.
    expect((await t.call("POST", `${hooks()}/${pushHook}/tests`, { token: owner.token })).status).toBe(204);
    const [pushed] = await receiver.waitFor(1, (r) => r.headers["x-forgejo-event-type"] === "push");
    const push = JSON.parse((pushed as Received).body);
    expect(push).toMatchObject({ ref: "refs/heads/main", total_commits: 1, pusher: { login: owner.name } });
    expect(push.commits).toHaveLength(1);
    expect(push.head_commit.id).toBe(push.after);
    expect(push.commits[0]).toMatchObject({
      id: push.after,
      message: expect.any(String),
      url: expect.any(String),
    });
    const deliveredEvents = receiver.received
      .slice(before)
      .map((r) => `${r.url} ${r.headers["x-forgejo-event-type"]}`);
    expect(deliveredEvents.sort()).toEqual(
      [
        "/hook?h=issues_only issues",
        "/hook?h=issue_comment issue_comment",
        "/hook?h=push+create create",
        "/hook?h=push+create push",
      ].sort(),
    );
    expect(issuesHook && commentHook).toBeTruthy();
    // Delivery history (Kiln's extension) shows the attempt and the receiver's answer.
    const history = await t.call("GET", `${hooks()}/${issuesHook}/deliveries`, { token: owner.token });
    expect(history.status).toBe(200);
    expect(history.json[0]).toMatchObject({
      event: "issues",
      delivered: true,
      succeeded: true,
      attempts: 1,
      response: { status: 200, body: "thanks" },
    });
    await Promise.all(
      [issuesHook, commentHook, pushHook].map((id) =>
        t.call("DELETE", `${hooks()}/${id}`, { token: owner.token }),
      ),
    );
  });

  it("sends the full ref in create and delete payloads to forgejo and gogs hooks, the short name to gitea and chat hooks", async () => {
    const kinds = [
      ["forgejo", {}],
      ["gitea", {}],
      ["gogs", {}],
      ["slack", { channel: "#dev" }],
    ] as const;
    const ids: number[] = [];
    for (const [type, extra] of kinds) {
      const res = await create({
        type,
        config: { url: `${receiver.url}?h=refs-${type}`, content_type: "json", ...extra },
        events: ["create", "delete"],
        active: true,
      });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    await record({ ...base(), type: "create", refType: "branch", ref: "feature", sha: "e".repeat(40) });
    await record({ ...base(), type: "create", refType: "tag", ref: "v1", sha: "f".repeat(40) });
    await record({ ...base(), type: "delete", refType: "branch", ref: "feature", sha: "e".repeat(40) });
    const got = async (type: string) =>
      (await receiver.waitFor(3, (r) => r.url === `/hook?h=refs-${type}`))
        .map((r) => JSON.parse(r.body))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    for (const type of ["forgejo", "gogs"]) {
      const refs = (await got(type)).map((p) => [p.ref, p.ref_type]).sort();
      expect(refs, type).toEqual([
        ["refs/heads/feature", "branch"],
        ["refs/heads/feature", "branch"],
        ["refs/tags/v1", "tag"],
      ]);
    }
    const gitea = (await got("gitea")).map((p) => [p.ref, p.ref_type]).sort();
    expect(gitea).toEqual([
      ["feature", "branch"],
      ["feature", "branch"],
      ["v1", "tag"],
    ]);
    const slack = (await got("slack")).map((p) => p.text.replace(/ <.*$/, "")).sort();
    expect(slack).toEqual([
      `[${owner.name}/${repo}] ${owner.name} created branch feature`,
      `[${owner.name}/${repo}] ${owner.name} created tag v1`,
      `[${owner.name}/${repo}] ${owner.name} deleted branch feature`,
    ]);
    for (const id of ids) await t.call("DELETE", `${hooks()}/${id}`, { token: owner.token });
  });

  it("renders release payloads, form-encoded, signed over the JSON", async () => {
    const id = (
      await create({
        type: "forgejo",
        config: { url: `${receiver.url}?h=release`, content_type: "form", secret },
        events: ["release", "repository"],
        active: true,
      })
    ).json.id;
    const release = await t.call("POST", `/repos/${owner.name}/${repo}/releases`, {
      token: owner.token,
      body: { tag_name: "v1", name: "One" },
    });
    expect(release.status).toBe(201);
    await record({ ...base(), type: "release", action: "updated", releaseId: release.json.id });
    const actionOf = (r: Received) => JSON.parse(new URLSearchParams(r.body).get("payload") ?? "{}").action;
    const got = await receiver.waitFor(1, (r) => r.url === "/hook?h=release" && actionOf(r) === "updated");
    const r = got[0] as Received;
    expect(r.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const raw = new URLSearchParams(r.body).get("payload") as string;
    // Forgejo signs the payload, not the form encoding.
    expect(r.headers["x-forgejo-signature"]).toBe(sign(secret, raw));
    expect(JSON.parse(raw)).toMatchObject({
      action: "updated",
      release: { id: release.json.id, tag_name: "v1", name: "One" },
      repository: { id: repoId },
      sender: { login: owner.name },
    });
    await t.call("DELETE", `${hooks()}/${id}`, { token: owner.token });
  });

  it("sends Forgejo's push payload for a file written through the API, its commits read from git", async () => {
    const id = (
      await create({
        type: "forgejo",
        config: { url: `${receiver.url}?h=push`, content_type: "json", secret },
        events: ["push"],
        branch_filter: "main",
        active: true,
      })
    ).json.id;
    const written = await t.call("POST", `/repos/${owner.name}/${repo}/contents/docs/new.md`, {
      token: owner.token,
      body: { content: Buffer.from("hello\n").toString("base64"), message: "Add docs/new.md" },
    });
    expect(written.status).toBe(201);
    const [got] = await receiver.waitFor(1, (r) => r.url === "/hook?h=push");
    const r = got as Received;
    expect(r.headers["x-forgejo-event"]).toBe("push");
    expect(r.headers["x-forgejo-signature"]).toBe(sign(secret, r.body));
    const push = JSON.parse(r.body);
    const sha = written.json.commit.sha;
    expect(push).toMatchObject({
      ref: "refs/heads/main",
      after: sha,
      total_commits: 1,
      compare_url: `http://kiln.test/${owner.name}/${repo}/compare/${push.before}...${sha}`,
      repository: { id: repoId },
      pusher: { login: owner.name },
      sender: { login: owner.name },
      head_commit: { id: sha, message: "Add docs/new.md\n" },
    });
    expect(push.before).toMatch(/^[0-9a-f]{40}$/);
    expect(push.commits).toEqual([
      expect.objectContaining({
        id: sha,
        url: `http://kiln.test/${owner.name}/${repo}/commit/${sha}`,
        author: expect.objectContaining({ name: expect.any(String), email: expect.any(String) }),
        committer: expect.objectContaining({ name: expect.any(String) }),
        timestamp: expect.any(String),
        added: ["docs/new.md"],
        removed: [],
        modified: [],
      }),
    ]);
    await t.call("DELETE", `${hooks()}/${id}`, { token: owner.token });
  });

  it("sends Forgejo's pull_request payload for a pull request opened through the API", async () => {
    const id = (
      await create({
        type: "gitea",
        config: { url: `${receiver.url}?h=pull`, content_type: "json", secret },
        events: ["pull_request_only"],
        active: true,
      })
    ).json.id;
    const base = `/repos/${owner.name}/${repo}`;
    expect(
      (await t.call("POST", `${base}/branches`, { token: owner.token, body: { new_branch_name: "feat" } }))
        .status,
    ).toBe(201);
    const written = await t.call("POST", `${base}/contents/feat.txt`, {
      token: owner.token,
      body: { content: Buffer.from("feat\n").toString("base64"), message: "feat", branch: "feat" },
    });
    expect(written.status).toBe(201);
    const pull = await t.call("POST", `${base}/pulls`, {
      token: owner.token,
      body: { head: "feat", base: "main", title: "Add feat" },
    });
    expect(pull.status).toBe(201);
    const [got] = await receiver.waitFor(1, (r) => r.url === "/hook?h=pull");
    const r = got as Received;
    expect(r.headers["x-gitea-event"]).toBe("pull_request");
    expect(r.headers["x-gitea-event-type"]).toBe("pull_request");
    expect(r.headers["x-gitea-signature"]).toBe(sign(secret, r.body));
    expect(JSON.parse(r.body)).toMatchObject({
      action: "opened",
      number: pull.json.number,
      pull_request: {
        id: pull.json.id,
        number: pull.json.number,
        title: "Add feat",
        state: "open",
        head: { ref: "feat", sha: written.json.commit.sha },
        base: { ref: "main" },
      },
      repository: { id: repoId },
      sender: { login: owner.name },
    });
    // A review (a comment review of one's own pull request) fires pull_request_review_comment.
    const reviewHook = (
      await create({
        type: "forgejo",
        config: { url: `${receiver.url}?h=review`, content_type: "json" },
        events: ["pull_request_review"],
        active: true,
      })
    ).json.id;
    const chat = (
      await create({
        type: "discord",
        config: { url: `${receiver.url}?h=discord`, content_type: "json", username: "kiln" },
        events: ["pull_request_review"],
        active: true,
      })
    ).json.id;
    const review = await t.call("POST", `${base}/pulls/${pull.json.number}/reviews`, {
      token: owner.token,
      body: { event: "COMMENT", body: "Looks fine" },
    });
    expect(review.status).toBe(200);
    const [reviewed] = await receiver.waitFor(1, (x) => x.url === "/hook?h=review");
    expect((reviewed as Received).headers["x-forgejo-event"]).toBe("pull_request_comment");
    expect((reviewed as Received).headers["x-forgejo-event-type"]).toBe("pull_request_review_comment");
    expect(JSON.parse((reviewed as Received).body)).toMatchObject({
      action: "reviewed",
      pull_request: { number: pull.json.number },
      review: { type: "pull_request_review_comment", content: "Looks fine" },
    });
    const [discord] = await receiver.waitFor(1, (x) => x.url === "/hook?h=discord");
    expect(JSON.parse((discord as Received).body)).toMatchObject({
      username: "kiln",
      embeds: [{ title: `[${owner.name}/${repo}] #${pull.json.number} reviewed: Add feat by ${owner.name}` }],
    });
    for (const hook of [id, reviewHook, chat])
      await t.call("DELETE", `${hooks()}/${hook}`, { token: owner.token });
  });

  it("fires review requests, approvals, rejections and pull_request_sync for changes made through the API", async () => {
    const base = `/repos/${owner.name}/${repo}`;
    const reviewer = await t.user();
    expect(
      (
        await t.call("PUT", `${base}/collaborators/${reviewer.name}`, {
          token: owner.token,
          body: { permission: "write" },
        })
      ).status,
    ).toBe(204);
    const id = (
      await create({
        type: "forgejo",
        config: { url: `${receiver.url}?h=reviews`, content_type: "json", secret },
        events: ["pull_request_review_request", "pull_request_review", "pull_request_sync"],
        active: true,
      })
    ).json.id;
    // Each delivery in turn (the receiver keeps every request it got).
    let seen = 0;
    const next = async (): Promise<Received | undefined> => {
      seen++;
      return (await receiver.waitFor(seen, (r) => r.url === "/hook?h=reviews"))[seen - 1];
    };
    expect(
      (await t.call("POST", `${base}/branches`, { token: owner.token, body: { new_branch_name: "rev" } }))
        .status,
    ).toBe(201);
    const write = (name: string) =>
      t.call("POST", `${base}/contents/${name}`, {
        token: owner.token,
        body: { content: Buffer.from(`${name}\n`).toString("base64"), message: name, branch: "rev" },
      });
    expect((await write("rev1.txt")).status).toBe(201);
    const pull = await t.call("POST", `${base}/pulls`, {
      token: owner.token,
      body: { head: "rev", base: "main", title: "Reviewed change" },
    });
    expect(pull.status).toBe(201);
    const number = pull.json.number;
    const asked = await t.call("POST", `${base}/pulls/${number}/requested_reviewers`, {
      token: owner.token,
      body: { reviewers: [reviewer.name] },
    });
    expect(asked.status).toBe(201);
    const request = await next();
    expect(request?.headers["x-forgejo-event"]).toBe("pull_request");
    expect(request?.headers["x-forgejo-event-type"]).toBe("pull_request_review_request");
    expect(request?.headers["x-forgejo-signature"]).toBe(sign(secret, request?.body ?? ""));
    expect(JSON.parse(request?.body ?? "")).toMatchObject({
      action: "review_requested",
      number,
      pull_request: { number, title: "Reviewed change" },
      requested_reviewer: { login: reviewer.name },
      sender: { login: owner.name },
    });

    for (const [event, type, header, body] of [
      ["REQUEST_CHANGES", "pull_request_review_rejected", "pull_request_rejected", "Needs a test"],
      ["APPROVED", "pull_request_review_approved", "pull_request_approved", "Good now"],
    ] as const) {
      const review = await t.call("POST", `${base}/pulls/${number}/reviews`, {
        token: reviewer.token,
        body: { event, body },
      });
      expect(review.status).toBe(200);
      const got = await next();
      expect([got?.headers["x-forgejo-event"], got?.headers["x-forgejo-event-type"]]).toEqual([header, type]);
      expect(JSON.parse(got?.body ?? "")).toMatchObject({
        action: "reviewed",
        pull_request: { number },
        review: { type, content: body },
        sender: { login: reviewer.name },
      });
    }

    // A new commit on the head branch synchronizes the pull request.
    const moved = await write("rev2.txt");
    expect(moved.status).toBe(201);
    expect((await t.call("GET", `${base}/pulls/${number}`, { token: owner.token })).json.head.sha).toBe(
      moved.json.commit.sha,
    );
    const sync = await next();
    expect([sync?.headers["x-forgejo-event"], sync?.headers["x-forgejo-event-type"]]).toEqual([
      "pull_request",
      "pull_request_sync",
    ]);
    expect(JSON.parse(sync?.body ?? "")).toMatchObject({
      action: "synchronized",
      pull_request: { number, head: { ref: "rev", sha: moved.json.commit.sha } },
    });
    await t.call("DELETE", `${hooks()}/${id}`, { token: owner.token });
  });

  it("fires issue_label, issue_assign and issue_milestone for changes made through the API", async () => {
    const id = (
      await create({
        type: "forgejo",
        config: { url: `${receiver.url}?h=issue-parts`, content_type: "json" },
        events: ["issue_label", "issue_assign", "issue_milestone"],
        active: true,
      })
    ).json.id;
    const base = `/repos/${owner.name}/${repo}`;
    const issue = await t.call("POST", `${base}/issues`, { token: owner.token, body: { title: "Parts" } });
    const label = await t.call("POST", `${base}/labels`, {
      token: owner.token,
      body: { name: "bug", color: "#ff0000" },
    });
    const milestone = await t.call("POST", `${base}/milestones`, {
      token: owner.token,
      body: { title: "1.0" },
    });
    expect([issue.status, label.status, milestone.status]).toEqual([201, 201, 201]);
    const n = issue.json.number;
    expect(
      (
        await t.call("POST", `${base}/issues/${n}/labels`, {
          token: owner.token,
          body: { labels: [label.json.id] },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.call("PATCH", `${base}/issues/${n}`, {
          token: owner.token,
          body: { assignees: [owner.name], milestone: milestone.json.id },
        })
      ).status,
    ).toBe(201);
    const got = await receiver.waitFor(3, (r) => r.url === "/hook?h=issue-parts");
    const byType = new Map(got.map((r) => [r.headers["x-forgejo-event-type"], JSON.parse(r.body)]));
    expect(got.every((r) => r.headers["x-forgejo-event"] === "issues")).toBe(true);
    expect(byType.get("issue_label")).toMatchObject({
      action: "label_updated",
      number: n,
      issue: { labels: [expect.objectContaining({ name: "bug" })] },
    });
    expect(byType.get("issue_assign")).toMatchObject({
      action: "assigned",
      issue: { assignees: [{ login: owner.name }] },
    });
    expect(byType.get("issue_milestone")).toMatchObject({
      action: "milestoned",
      issue: { milestone: { title: "1.0" } },
    });
    await t.call("DELETE", `${hooks()}/${id}`, { token: owner.token });
  });

  it("retries a failed delivery with the same delivery id and keeps the hook active", async () => {
    const res = await create({
      type: "forgejo",
      config: { url: failing.url, content_type: "json" },
      events: ["create"],
      active: true,
    });
    const id = res.json.id;
    await record({ ...base(), type: "create", refType: "tag", ref: "v9", sha: "c".repeat(40) });
    const attempts = await failing.waitFor(3);
    const ids = new Set(attempts.map((a) => a.headers["x-forgejo-delivery"]));
    expect(ids.size).toBe(1);
    expect(attempts.map((a) => a.body)).toEqual([attempts[0]?.body, attempts[0]?.body, attempts[0]?.body]);
    let history = await t.call("GET", `${hooks()}/${id}/deliveries`, { token: owner.token });
    while (!history.json[0].delivered) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      history = await t.call("GET", `${hooks()}/${id}/deliveries`, { token: owner.token });
    }
    expect(history.json).toHaveLength(1);
    expect(history.json[0]).toMatchObject({ attempts: 3, succeeded: true, response: { status: 200 } });
    expect((await t.call("GET", `${hooks()}/${id}`, { token: owner.token })).json.active).toBe(true);
    // cleanup_hook_task_table removes finished deliveries older than a week, and only those.
    await t.services.cron.run("cleanup_hook_task_table");
    expect((await t.call("GET", `${hooks()}/${id}/deliveries`, { token: owner.token })).json).toHaveLength(1);
    await t.services.ctx.db
      .updateTable("hook_task")
      .set({ createdAt: new Date(Date.now() - 8 * 24 * 3600 * 1000) } as never)
      .where("hookId", "=", id)
      .execute();
    await t.services.cron.run("cleanup_hook_task_table");
    expect((await t.call("GET", `${hooks()}/${id}/deliveries`, { token: owner.token })).json).toHaveLength(0);
  });
});

describe("webhook allow list by default", () => {
  it("refuses a loopback receiver: no request arrives, the history shows the refusal", async () => {
    const t = await openTestApp("pglite");
    const receiver = await startReceiver();
    try {
      const owner = await t.user();
      await t.call("POST", "/user/repos", { token: owner.token, body: { name: "r", auto_init: true } });
      const hook = await t.call("POST", `/repos/${owner.name}/r/hooks`, {
        token: owner.token,
        body: { type: "forgejo", config: { url: receiver.url, content_type: "json" }, active: true },
      });
      expect(hook.status).toBe(201);
      expect(
        (await t.call("POST", `/repos/${owner.name}/r/hooks/${hook.json.id}/tests`, { token: owner.token }))
          .status,
      ).toBe(204);
      await t.services.webhooks.worker.runOnce();
      const history = await t.call("GET", `/repos/${owner.name}/r/hooks/${hook.json.id}/deliveries`, {
        token: owner.token,
      });
      expect(history.json[0]).toMatchObject({ delivered: true, succeeded: false, attempts: 1 });
      expect(history.json[0].response.body).toBe(
        "webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '127.0.0.1(127.0.0.1)'",
      );
      // A name is judged by the address it resolves to: localhost is loopback, refused as well.
      const byName = await t.call("POST", `/repos/${owner.name}/r/hooks`, {
        token: owner.token,
        body: {
          type: "forgejo",
          config: { url: receiver.url.replace("127.0.0.1", "localhost"), content_type: "json" },
          active: true,
        },
      });
      expect(byName.status).toBe(201);
      await t.call("POST", `/repos/${owner.name}/r/hooks/${byName.json.id}/tests`, { token: owner.token });
      await t.services.webhooks.worker.runOnce();
      const named = await t.call("GET", `/repos/${owner.name}/r/hooks/${byName.json.id}/deliveries`, {
        token: owner.token,
      });
      expect(named.json[0]).toMatchObject({ delivered: true, succeeded: false });
      expect(named.json[0].response.body).toMatch(
        /^webhook can only call allowed HTTP servers .* deny 'localhost\((127\.0\.0\.1|::1)\)'$/,
      );
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});

describe.each(DIALECTS)("organization, user and admin webhooks on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let receiver: HookReceiver;
  const org = "hookorg";

  beforeAll(async () => {
    t = await openTestApp(dialect, { webhook: { allowedHostList: "loopback", retryBackoff: 1 } });
    admin = await t.user({ admin: true });
    alice = await t.user();
    bob = await t.user();
    receiver = await startReceiver();
    expect(
      (await t.call("POST", "/orgs", { token: alice.token, body: { username: org, visibility: "private" } }))
        .status,
    ).toBe(201);
    t.services.webhooks.worker.start();
  });

  afterAll(async () => {
    await t.services.webhooks.worker.stop();
    await receiver.close();
    await t.close();
  });

  const hookBody = (tag: string, extra: Record<string, unknown> = {}) => ({
    type: "forgejo",
    config: { url: `${receiver.url}?h=${tag}`, content_type: "json" },
    events: ["create"],
    active: true,
    ...extra,
  });
  const createEvent = async (ownerId: number, repoId: number, ref: string) =>
    t.services.ctx.db.transaction().execute((trx) =>
      t.services.ctx.events.record(trx, {
        repoId,
        ownerId,
        actorId: alice.id,
        at: new Date(),
        type: "create",
        refType: "tag",
        ref,
        sha: "d".repeat(40),
      }),
    );

  it("keeps each scope's hooks to those who may manage them, and fires org, system and default hooks", async () => {
    const orgHook = await t.call("POST", `/orgs/${org}/hooks`, { token: alice.token, body: hookBody("org") });
    expect(orgHook.status).toBe(201);
    expect((await t.call("GET", `/orgs/${org}/hooks`, { token: bob.token })).status).toBe(404);
    expect(
      (await t.call("GET", `/orgs/${org}/hooks/${orgHook.json.id}`, { token: alice.token })).json.id,
    ).toBe(orgHook.json.id);
    const bobHook = await t.call("POST", "/user/hooks", { token: bob.token, body: hookBody("bob") });
    expect(bobHook.status).toBe(201);
    expect((await t.call("GET", `/user/hooks/${bobHook.json.id}`, { token: alice.token })).status).toBe(404);
    expect((await t.call("GET", "/user/hooks", { token: bob.token })).json).toHaveLength(1);
    expect((await t.call("POST", "/admin/hooks", { token: alice.token, body: hookBody("x") })).status).toBe(
      403,
    );
    const system = await t.call("POST", "/admin/hooks", {
      token: admin.token,
      body: hookBody("system", { is_system_webhook: true }),
    });
    expect(system.status).toBe(201);
    const before = await t.call("POST", `/orgs/${org}/repos`, { token: alice.token, body: { name: "old" } });
    expect(before.status).toBe(201);
    const dflt = await t.call("POST", "/admin/hooks", { token: admin.token, body: hookBody("default") });
    expect(dflt.status).toBe(201);
    const ids = async (type: string) =>
      (await t.call("GET", `/admin/hooks?type=${type}`, { token: admin.token })).json.map(
        (h: { id: number }) => h.id,
      );
    expect(await ids("system")).toEqual([system.json.id]);
    expect(await ids("default")).toEqual([dflt.json.id]);
    expect(await ids("all")).toEqual([system.json.id, dflt.json.id]);
    const after = await t.call("POST", `/orgs/${org}/repos`, { token: alice.token, body: { name: "new" } });
    expect(after.status).toBe(201);
    const orgId = after.json.owner.id;

    // A tag in the repository made before the default hook: the org and system hooks fire.
    await createEvent(orgId, before.json.id, "v-old");
    // One made after it: the default hook fires too (Forgejo copies default hooks into new repositories).
    await createEvent(orgId, after.json.id, "v-new");
    const tagOf = (r: Received) =>
      `${r.url.split("=")[1]}:${JSON.parse(r.body).ref.replace("refs/tags/", "")}`;
    const got = await receiver.waitFor(5, (r) => r.headers["x-forgejo-event"] === "create");
    expect(got.map(tagOf).sort()).toEqual(
      ["default:v-new", "org:v-new", "org:v-old", "system:v-new", "system:v-old"].sort(),
    );
    // The queue holds exactly these: the default hook has one delivery (the new repository's).
    const history = await t.call("GET", `/admin/hooks/${dflt.json.id}/deliveries`, { token: admin.token });
    expect(history.json).toHaveLength(1);
    expect(JSON.parse(history.json[0].payload).ref).toBe("refs/tags/v-new");
    expect(got.every((r) => JSON.parse(r.body).repository.owner.login === org)).toBe(true);
  });
  it("sends repository events to the owner's hooks and package events to the package owner's user hooks", async () => {
    const repoHook = await t.call("POST", `/orgs/${org}/hooks`, {
      token: alice.token,
      body: hookBody("repository", { events: ["repository"] }),
    });
    expect(repoHook.status).toBe(201);
    const made = await t.call("POST", `/orgs/${org}/repos`, {
      token: alice.token,
      body: { name: "announced" },
    });
    expect(made.status).toBe(201);
    const [created] = await receiver.waitFor(1, (r) => r.url === "/hook?h=repository");
    expect((created as Received).headers["x-forgejo-event"]).toBe("repository");
    expect(JSON.parse((created as Received).body)).toMatchObject({
      action: "created",
      repository: { id: made.json.id, full_name: `${org}/announced` },
      organization: { login: org },
      sender: { login: alice.name },
    });
    const pkgHook = await t.call("POST", "/user/hooks", {
      token: bob.token,
      body: hookBody("package", { events: ["package"] }),
    });
    expect(pkgHook.status).toBe(201);
    const put = await t.app.request(`http://kiln.test/api/packages/${bob.name}/generic/tool/1.0.0/tool.bin`, {
      method: "PUT",
      headers: { Authorization: `token ${bob.token}` },
      body: "bytes",
    });
    expect(put.status).toBe(201);
    const [pkg] = await receiver.waitFor(1, (r) => r.url === "/hook?h=package");
    expect((pkg as Received).headers["x-forgejo-event"]).toBe("package");
    expect(JSON.parse((pkg as Received).body)).toMatchObject({
      action: "created",
      package: { type: "generic", name: "tool", version: "1.0.0", owner: { login: bob.name } },
      sender: { login: bob.name },
    });
  });
});
