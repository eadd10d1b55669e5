import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { comments, issueSearch, issues, labels, milestones, repositories, users } from "./index.js";

describe.each(DIALECTS)("issues on %s", (dialect) => {
  let t: TestDatabase;
  let repoId: number;
  let otherRepoId: number;
  let ownerId: number;
  let alice: number;
  let bob: number;
  const page = { page: 1, limit: 50 };

  const newIssue = async (title: string, content = "", at = new Date(), repo = repoId, poster = alice) => {
    const index = await issues.nextIssueIndex(t.db, repo);
    return issues.insertIssue(
      t.db,
      {
        repoId: repo,
        posterId: poster,
        title,
        content,
        ref: "",
        milestoneId: null,
        deadline: null,
        isPull: false,
      },
      index,
      at,
    );
  };
  const titles = async (filter: Partial<issueSearch.IssueFilter>, sort: issueSearch.IssueSort = "latest") =>
    (
      await issueSearch.searchIssues(t.db, { repoIds: [repoId], state: "all", ...filter }, sort, page)
    ).items.map((issue) => issue.title);

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const ownerName = uniqueName("owner");
    const owner = await users.insertUser(t.db, { name: ownerName, lowerName: ownerName });
    ownerId = owner.id;
    alice = (await users.insertUser(t.db, { name: uniqueName("alice"), lowerName: uniqueName("alice") })).id;
    bob = (await users.insertUser(t.db, { name: uniqueName("bob"), lowerName: uniqueName("bob") })).id;
    const repo = (name: string) =>
      repositories.insertRepository(t.db, {
        ownerId,
        ownerName,
        name,
        lowerName: name,
        defaultBranch: "main",
      });
    repoId = (await repo("r")).id;
    otherRepoId = (await repo("other")).id;
  });
  afterAll(() => t?.close());

  it("numbers issues per repository without gaps or repeats, also when created concurrently", async () => {
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => newIssue(`n${i}`, "", new Date(), otherRepoId)),
    );
    expect(created.map((issue) => issue.index).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await newIssue("first here")).index).toBe(1);
  });

  it("recounts a repository's open and closed issues", async () => {
    const issue = await newIssue("to close");
    await issues.updateIssue(t.db, issue.id, { isClosed: true, closedAt: new Date() });
    await issues.recountRepoIssues(t.db, repoId);
    const repo = await repositories.findRepositoryById(t.db, repoId);
    expect(repo).toMatchObject({ numIssues: 2, numClosedIssues: 1, numPulls: 0, numClosedPulls: 0 });
  });

  it("filters by every label group given (AND of ORs), by milestone, poster, assignee and mention", async () => {
    const bug = await labels.insertLabel(
      t.db,
      { repoId },
      { name: "bug", color: "#ee0701", description: "", exclusive: false, archived: false },
    );
    const ui = await labels.insertLabel(
      t.db,
      { repoId },
      { name: "ui", color: "#00aabb", description: "", exclusive: false, archived: false },
    );
    const orgLabel = await labels.insertLabel(
      t.db,
      { orgId: ownerId },
      { name: "triage", color: "#123456", description: "", exclusive: false, archived: false },
    );
    const m1 = await milestones.insertMilestone(t.db, repoId, {
      name: "v1",
      content: "",
      deadline: null,
      closed: false,
    });
    const both = await newIssue("both labels");
    const onlyBug = await newIssue("only bug", "", new Date(), repoId, bob);
    await issues.addIssueLabels(t.db, both.id, [bug.id, ui.id, orgLabel.id]);
    await issues.addIssueLabels(t.db, onlyBug.id, [bug.id]);
    await issues.updateIssue(t.db, onlyBug.id, { milestoneId: m1.id });
    await issues.addAssignees(t.db, both.id, [bob]);
    await issues.markMentioned(t.db, onlyBug.id, [alice]);
    await labels.recountLabels(t.db, [bug.id, ui.id]);
    await milestones.recountMilestones(t.db, [m1.id]);

    expect(await titles({ labelGroups: [[bug.id], [ui.id]] })).toEqual(["both labels"]);
    expect((await titles({ labelGroups: [[bug.id, ui.id]] })).sort()).toEqual(["both labels", "only bug"]);
    expect((await titles({ labelGroups: [[bug.id]] })).sort()).toEqual(["both labels", "only bug"]);
    expect(await titles({ anyLabelNames: ["triage"] })).toEqual(["both labels"]);
    expect(await titles({ milestoneIds: [m1.id] })).toEqual(["only bug"]);
    // The repository's other issues carry no label and no milestone.
    const others = (await titles({})).filter((title) => title !== "both labels" && title !== "only bug");
    expect((await titles({ withoutLabelIds: [ui.id] })).sort()).toEqual([...others, "only bug"].sort());
    expect((await titles({ withoutLabelIds: [bug.id] })).sort()).toEqual([...others].sort());
    expect((await titles({ noLabels: true })).sort()).toEqual([...others].sort());
    expect((await titles({ noMilestone: true })).sort()).toEqual([...others, "both labels"].sort());
    expect(await titles({ milestoneNames: ["V1"] })).toEqual(["only bug"]);
    expect(await titles({ posterId: bob })).toEqual(["only bug"]);
    expect(await titles({ assigneeId: bob })).toEqual(["both labels"]);
    expect(await titles({ mentionedId: alice })).toEqual(["only bug"]);
    expect(await labels.findLabel(t.db, { repoId }, bug.id)).toMatchObject({
      numIssues: 2,
      numClosedIssues: 0,
    });
    expect(await milestones.findMilestone(t.db, repoId, m1.id)).toMatchObject({
      numIssues: 1,
      numClosedIssues: 0,
    });
    const byIssue = await labels.labelsOfIssues(t.db, [both.id]);
    expect(byIssue.get(both.id)?.map((label) => label.name)).toEqual(["bug", "triage", "ui"]);
  });

  it("finds words of titles, bodies and comments as prefixes, and issue numbers", async () => {
    const crash = await newIssue("Crash on start", "the app crashes when the cache is empty");
    const other = await newIssue("Unrelated", "nothing here");
    await comments.insertComment(
      t.db,
      { issueId: other.id, type: 0, posterId: bob, content: "seen a segfault too" },
      new Date(),
    );
    await comments.insertComment(
      t.db,
      { issueId: other.id, type: 2, posterId: bob, content: "crash" },
      new Date(),
    );
    expect(await titles({ keyword: "crash" })).toEqual(["Crash on start"]);
    expect(await titles({ keyword: "CACHE empt" })).toEqual(["Crash on start"]);
    expect(await titles({ keyword: "segf" })).toEqual(["Unrelated"]);
    expect(await titles({ keyword: `#${crash.index}` })).toEqual(["Crash on start"]);
    // Punctuation alone is no search at all: every issue of the repository.
    expect(await titles({ keyword: "'&|!():*<>" })).toHaveLength(6);
    expect(await titles({ keyword: "nomatchatall" })).toEqual([]);
  });

  it("orders by creation, update, comments and due date; filters by state and update window", async () => {
    const base = Date.UTC(2030, 0, 1);
    const repo = (
      await repositories.insertRepository(t.db, {
        ownerId,
        ownerName: "x",
        name: "sorted",
        lowerName: "sorted",
        defaultBranch: "main",
      })
    ).id;
    const make = async (title: string, minute: number) =>
      newIssue(title, "", new Date(base + minute * 60_000), repo);
    const a = await make("a", 1);
    const b = await make("b", 2);
    const c = await make("c", 3);
    await issues.updateIssue(t.db, a.id, {
      updatedAt: new Date(base + 10 * 60_000),
      deadline: new Date(base + 86_400_000),
    });
    await issues.updateIssue(t.db, b.id, { updatedAt: new Date(base + 5 * 60_000), isClosed: true });
    await issues.updateIssue(t.db, c.id, { updatedAt: new Date(base + 3 * 60_000) });
    // As every service change does, in its transaction: a plain list's total is read from these.
    await issues.recountRepoIssues(t.db, repo);
    await comments.insertComment(t.db, { issueId: c.id, type: 0, posterId: bob, content: "x" }, new Date());
    await issues.recountComments(t.db, c.id);
    const list = async (filter: Partial<issueSearch.IssueFilter>, sort: issueSearch.IssueSort) =>
      (
        await issueSearch.searchIssues(t.db, { repoIds: [repo], state: "all", ...filter }, sort, page)
      ).items.map((i) => i.title);
    expect(await list({}, "latest")).toEqual(["c", "b", "a"]);
    expect(await list({}, "oldest")).toEqual(["a", "b", "c"]);
    expect(await list({}, "recentupdate")).toEqual(["a", "b", "c"]);
    expect(await list({}, "mostcomment")).toEqual(["c", "b", "a"]);
    expect(await list({}, "nearduedate")).toEqual(["a", "c", "b"]);
    expect(await list({ state: "closed" }, "latest")).toEqual(["b"]);
    expect(await list({ state: "open" }, "latest")).toEqual(["c", "a"]);
    expect(
      await list(
        { updatedSince: new Date(base + 4 * 60_000), updatedBefore: new Date(base + 6 * 60_000) },
        "latest",
      ),
    ).toEqual(["b"]);
    const paged = await issueSearch.searchIssues(t.db, { repoIds: [repo], state: "all" }, "oldest", {
      page: 2,
      limit: 2,
    });
    expect(paged.items.map((i) => i.title)).toEqual(["c"]);
    expect(paged.total).toBe(3);
    const open = await issueSearch.searchIssues(
      t.db,
      { repoIds: [repo], state: "open", isPull: false },
      "latest",
      page,
    );
    expect(open.total).toBe(2);
    const closed = await issueSearch.searchIssues(t.db, { repoIds: [repo], state: "closed" }, "latest", page);
    expect(closed.total).toBe(1);
  });
});
