import type { User } from "@kiln/domain";
import { actorFor, type RepoAccess } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

/** The titles of the rows of an issue list, in order. */
const titles = (html: string) =>
  [
    ...html.matchAll(/<h3 class="list-item-title">.*?<a href="[^"]*\/(?:issues|pulls)\/\d+">([^<]+)<\/a>/g),
  ].map((m) => m[1]);

describe.each(DIALECTS)("the issue pages on %s", (dialect) => {
  let t: WebTestApp;
  let owner: User;
  let access: RepoAccess;
  let bugId: number;
  let milestoneId: number;
  const pullIndex = { value: 0 };

  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    const s = t.services;
    owner = await t.user({ name: "tracker-owner" });
    await s.repositories.create(owner, owner, { name: "tracker", autoInit: true });
    access = await s.access.repo(actorFor(owner), "tracker-owner", "tracker");
    bugId = (await s.labels.create({ repoId: access.repo.id }, { name: "bug", color: "#ee0701" })).id;
    milestoneId = (await s.milestones.create(access.repo, { title: "v1.0", dueOn: new Date("2031-01-01") }))
      .id;
    for (let i = 1; i <= 6; i++) await s.issues.create(access, { title: `plain issue ${i}` });
    const bug = await s.issues.create(access, {
      title: "crash on start",
      body: "It **crashes**.\n\n<script>alert('pwned')</script><img src=x onerror=alert(1)>",
      labelIds: [bugId],
      milestoneId,
    });
    await s.comments.create(access, bug.index, "Seen too <script>document.title='owned'</script> _here_");
    await s.issueEdits.edit(access, bug.index, { state: "closed" });
    await s.files.changeFiles(
      access.repo,
      owner,
      [{ operation: "create", path: "feature.txt", content: new TextEncoder().encode("new\n") }],
      { branch: "main", newBranch: "feature", message: "add a feature" },
    );
    pullIndex.value = (
      await s.pulls.create(access, { head: "feature", base: "main", title: "add the feature" })
    ).issue.index;
    await s.repositories.create(owner, owner, { name: "vault", private: true, autoInit: true });
    await s.issues.create(await s.access.repo(actorFor(owner), "tracker-owner", "vault"), {
      title: "vault issue",
    });
  });
  afterAll(() => t?.close());

  it("lists open issues with counts as tabs, narrows by state, label, milestone and keyword", async () => {
    const b = t.browser();
    const open = await b.get("/tracker-owner/tracker/issues");
    expect(open.status).toBe(200);
    expect(titles(open.html)).toHaveLength(6);
    expect(titles(open.html)).not.toContain("add the feature");
    expect(open.html).toMatch(/Open\s*<span class="counter">6<\/span>/);
    expect(open.html).toMatch(/Closed\s*<span class="counter">1<\/span>/);
    expect(open.html).toContain('<form class="issue-filters" method="get"');
    const closed = await b.get("/tracker-owner/tracker/issues?state=closed");
    expect(titles(closed.html)).toEqual(["crash on start"]);
    expect(closed.html).toContain('class="label label-c-ee0701"');
    expect(closed.html).toContain(".label-c-ee0701{background:#ee0701;color:#000000}");
    const byLabel = await b.get(`/tracker-owner/tracker/issues?state=all&labels=${bugId}`);
    expect(titles(byLabel.html)).toEqual(["crash on start"]);
    const byMilestone = await b.get(`/tracker-owner/tracker/issues?state=all&milestone=${milestoneId}`);
    expect(titles(byMilestone.html)).toEqual(["crash on start"]);
    // Forgejo's other forms: a negative label leaves it out, `labels=0` asks for no label at all,
    // `milestone=-1` for no milestone; the filter form offers the last two and keeps the first.
    const withoutBug = await b.get(`/tracker-owner/tracker/issues?state=all&labels=-${bugId}`);
    expect(titles(withoutBug.html)).toHaveLength(6);
    expect(titles(withoutBug.html)).not.toContain("crash on start");
    expect(withoutBug.html).toMatch(new RegExp(`<option value="-${bugId}" selected="">1 left out</option>`));
    const unlabelled = await b.get("/tracker-owner/tracker/issues?state=closed&labels=0");
    expect(titles(unlabelled.html)).toEqual([]);
    expect(unlabelled.html).toContain('<option value="0" selected="">No label</option>');
    const noMilestone = await b.get("/tracker-owner/tracker/issues?state=all&milestone=-1");
    expect(titles(noMilestone.html)).toHaveLength(6);
    expect(titles(noMilestone.html)).not.toContain("crash on start");
    expect(noMilestone.html).toContain('<option value="-1" selected="">No milestone</option>');
    const byWord = await b.get("/tracker-owner/tracker/issues?q=plain+issue+3");
    expect(titles(byWord.html)).toEqual(["plain issue 3"]);
    const pulls = await b.get("/tracker-owner/tracker/pulls");
    expect(titles(pulls.html)).toEqual(["add the feature"]);
  });

  it("shows a reviewer the pull requests waiting for their review, and those they reviewed", async () => {
    const s = t.services;
    const reviewer = await t.user({ name: "tracker-reviewer" });
    await s.collaborators.add(access.repo, reviewer, "write", owner);
    const asReviewer = await t.signedIn(reviewer);
    const view = async (type: string) =>
      titles((await asReviewer.get(`/tracker-owner/tracker/pulls?state=all&type=${type}`)).html);
    expect(await view("review_requested")).toEqual([]);
    await s.reviewRequests.request(access, pullIndex.value, {
      reviewers: ["tracker-reviewer"],
      teamReviewers: [],
    });
    expect(await view("review_requested")).toEqual(["add the feature"]);
    expect(await view("reviewed_by")).toEqual([]);
    // The poster is never asked for their own pull request's review.
    const asOwner = await t.signedIn(owner);
    expect(titles((await asOwner.get("/tracker-owner/tracker/pulls?type=review_requested")).html)).toEqual(
      [],
    );
    const reviewerAccess = await s.access.repo(actorFor(reviewer), "tracker-owner", "tracker");
    await s.reviews.create(reviewerAccess, pullIndex.value, {
      event: "APPROVED",
      body: "fine",
      comments: [],
    });
    expect(await view("review_requested")).toEqual([]);
    expect(await view("reviewed_by")).toEqual(["add the feature"]);
    // The pull request list offers both views; an anonymous visitor's type is ignored.
    expect((await asReviewer.get("/tracker-owner/tracker/pulls")).html).toContain(
      '<option value="reviewed_by">',
    );
    expect(titles((await t.browser().get("/tracker-owner/tracker/pulls?type=reviewed_by")).html)).toEqual([
      "add the feature",
    ]);
  });

  it("pages with a bounded limit, and reads nonsense as defaults", async () => {
    const b = t.browser();
    const first = await b.get("/tracker-owner/tracker/issues?limit=4&sort=oldest");
    expect(titles(first.html)).toEqual(["plain issue 1", "plain issue 2", "plain issue 3", "plain issue 4"]);
    expect(first.html).toContain("page=2");
    const second = await b.get("/tracker-owner/tracker/issues?limit=4&sort=oldest&page=2");
    expect(titles(second.html)).toEqual(["plain issue 5", "plain issue 6"]);
    for (const q of [
      "limit=99999",
      "page=-3",
      "labels=x,,-1",
      "milestone=abc",
      "sort=%00",
      "page=99999999999999999999",
    ]) {
      expect((await b.get(`/tracker-owner/tracker/issues?${q}`)).status).toBe(200);
    }
  });

  it("shows an issue with its rendered, sanitized Markdown, timeline events, labels and milestone", async () => {
    const page = await t.browser().get("/tracker-owner/tracker/issues/7");
    expect(page.status).toBe(200);
    expect(page.html).toContain("<strong>crashes</strong>");
    expect(page.html).toContain("<em>here</em>");
    expect(page.html).not.toContain("<script>alert");
    expect(page.html).not.toContain("document.title");
    expect(page.html).not.toContain("onerror");
    expect(page.html).toMatch(/added the <span class="label label-c-ee0701"[^>]*>bug<\/span> label/);
    expect(page.html).toContain("added this to the v1.0 milestone");
    expect(page.html).toContain("closed this");
    expect(page.html).toContain("1 participant");
    expect((await t.browser().get("/tracker-owner/tracker/issues/999")).status).toBe(404);
    expect((await t.browser().get("/tracker-owner/tracker/issues/abc")).status).toBe(404);
  });

  it("sends an issue asked for as a pull request to its own path, and the reverse", async () => {
    const b = t.browser();
    const asIssue = await b.get(`/tracker-owner/tracker/issues/${pullIndex.value}`);
    expect(asIssue.status).toBe(303);
    expect(asIssue.location).toBe(`/tracker-owner/tracker/pulls/${pullIndex.value}`);
    expect((await b.get("/tracker-owner/tracker/pulls/1")).location).toBe("/tracker-owner/tracker/issues/1");
    const pull = await b.get(`/tracker-owner/tracker/pulls/${pullIndex.value}`);
    expect(pull.status).toBe(200);
    expect(pull.html).toContain('<code class="branch">main</code>');
    expect(pull.html).toContain('<code class="branch">feature</code>');
    expect(pull.html).toContain(`href="/tracker-owner/tracker/pulls/${pullIndex.value}/files"`);
    expect(pull.html).toContain(`href="/tracker-owner/tracker/pulls/${pullIndex.value}/commits"`);
  });

  it("lists milestones with their progress and labels with their open issue counts", async () => {
    const b = t.browser();
    const milestones = await b.get("/tracker-owner/tracker/milestones");
    expect(milestones.status).toBe(200);
    expect(milestones.html).toContain("v1.0");
    expect(milestones.html).toContain('aria-label="v1.0: 100% complete"');
    expect(milestones.html).toContain("2031-01-01");
    const labels = await b.get("/tracker-owner/tracker/labels");
    expect(labels.html).toMatch(/>bug<\/span>/);
    expect(labels.html).toContain("0 open");
  });

  it("answers 404 for a private repository's issues to anonymous visitors, outsiders and restricted users", async () => {
    const outsider = await t.signedIn(await t.user());
    const restricted = await t.signedIn(await t.user({ restricted: true }));
    for (const path of [
      "/tracker-owner/vault/issues",
      "/tracker-owner/vault/issues/1",
      "/tracker-owner/vault/labels",
    ]) {
      for (const b of [t.browser(), outsider]) {
        const res = await b.get(path);
        expect(res.status).toBe(404);
        expect(res.html).not.toContain("vault issue");
      }
    }
    // A restricted user sees no repository it was not given, public or not.
    expect((await restricted.get("/tracker-owner/tracker/issues")).status).toBe(404);
    expect((await restricted.get("/tracker-owner/tracker/issues/1")).status).toBe(404);
    const mine = await t.signedIn(owner);
    expect((await mine.get("/tracker-owner/vault/issues/1")).html).toContain("vault issue");
  });

  it("answers 404 for the issue pages when the viewer's team may not read the issues unit", async () => {
    const s = t.services;
    const member = await t.user();
    const org = await s.orgs.create(owner, `codeonly-${dialect}`, { visibility: "public" });
    await s.repositories.create(owner, org, { name: "inner", private: true, autoInit: true });
    const inner = await s.access.repo(actorFor(owner), org.name, "inner");
    await s.issues.create(inner, { title: "inner issue" });
    const team = await s.teams.create(org, { name: "coders", permission: "read", units: ["repo.code"] });
    await s.teams.addMember(team, member, owner);
    await s.teams.addRepo(team, inner.repo, owner);
    const b = await t.signedIn(member);
    expect((await b.get(`/${org.name}/inner`)).status).toBe(200);
    for (const path of ["issues", "issues/1", "labels", "milestones"]) {
      expect((await b.get(`/${org.name}/inner/${path}`)).status).toBe(404);
    }
  });
});
