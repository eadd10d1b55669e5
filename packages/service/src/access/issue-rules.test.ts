import { describe, expect, it } from "vitest";
import { caller, permission, siteAdmin, user } from "../../test/rule-fixtures.js";
import {
  managesTimes,
  mayBeAssigned,
  mayChangeCommentAttachments,
  mayChangeIssueAttachments,
  mayChangeSubscriptionOf,
  mayDeleteTime,
  mayEditComment,
  mayEditIssue,
  maySetUpdateTime,
  mayTalkOn,
  mayTrackTime,
  mayTrackTimeForOthers,
  readableIssueKinds,
  readsIssues,
  referenceRights,
  writesIssues,
} from "./issue-rules.js";

const issue = (posterId: number | null, isPull = false, isLocked = false) => ({ posterId, isPull, isLocked });

describe("writesIssues and readsIssues", () => {
  it("follow the issue's own unit: issues for issues, pulls for pull requests", () => {
    const pullsOnly = caller("read", user(2), { "repo.pulls": "write" });
    expect(writesIssues(pullsOnly, true)).toBe(true);
    expect(writesIssues(pullsOnly, false)).toBe(false);
    const noIssues = caller("read", user(2), { "repo.issues": "none" });
    expect(readsIssues(noIssues, false)).toBe(false);
    expect(readsIssues(noIssues, true)).toBe(true);
  });

  it("always hold for site admins", () => {
    expect(writesIssues(caller("none", siteAdmin), false)).toBe(true);
    expect(readsIssues(caller("none", siteAdmin), true)).toBe(true);
  });

  it("give a list the kinds the caller reads", () => {
    expect(readableIssueKinds(permission("read", { "repo.pulls": "none" }), user(2))).toEqual({
      issues: true,
      pulls: false,
    });
    expect(readableIssueKinds(permission("none"), siteAdmin)).toEqual({ issues: true, pulls: true });
    expect(readableIssueKinds(permission("none"), null)).toEqual({ issues: false, pulls: false });
  });
});

describe("editing issues and comments", () => {
  it("lets the poster and writers edit, not other readers", () => {
    expect(mayEditIssue(caller("read"), issue(2))).toBe(true);
    expect(mayEditIssue(caller("read"), issue(3))).toBe(false);
    expect(mayEditIssue(caller("write"), issue(3))).toBe(true);
    expect(mayEditIssue(caller("read", siteAdmin), issue(3))).toBe(true);
    expect(mayEditIssue(caller("read", null), issue(null))).toBe(false);
    expect(mayEditComment(caller("read"), { posterId: 2 }, false)).toBe(true);
    expect(mayEditComment(caller("read"), { posterId: 3 }, false)).toBe(false);
    expect(mayEditComment(caller("read", user(2), { "repo.pulls": "write" }), { posterId: 3 }, true)).toBe(
      true,
    );
  });

  it("lets only writers talk on a locked issue", () => {
    expect(mayTalkOn(caller("read"), issue(2))).toBe(true);
    expect(mayTalkOn(caller("read"), issue(2, false, true))).toBe(false);
    expect(mayTalkOn(caller("write"), issue(2, false, true))).toBe(true);
  });

  it("lets only repository and site admins date a change", () => {
    expect(maySetUpdateTime(caller("admin"))).toBe(true);
    expect(maySetUpdateTime(caller("read", siteAdmin))).toBe(true);
    expect(maySetUpdateTime(caller("write"))).toBe(false);
  });
});

describe("attachments", () => {
  it("of an issue: its poster, repository admins and writers", () => {
    expect(mayChangeIssueAttachments(caller("read"), issue(2))).toBe(true);
    expect(mayChangeIssueAttachments(caller("read"), issue(3))).toBe(false);
    expect(mayChangeIssueAttachments(caller("write"), issue(3))).toBe(true);
    expect(mayChangeIssueAttachments(caller("admin", null), issue(3))).toBe(false);
  });

  it("of a comment: its poster or an admin, who must also write the unit", () => {
    expect(mayChangeCommentAttachments(caller("write"), { posterId: 2 }, false)).toBe(true);
    expect(mayChangeCommentAttachments(caller("write"), { posterId: 3 }, false)).toBe(false);
    expect(mayChangeCommentAttachments(caller("read"), { posterId: 2 }, false)).toBe(false);
    expect(mayChangeCommentAttachments(caller("admin"), { posterId: 3 }, false)).toBe(true);
  });
});

describe("assignees and references", () => {
  it("assigns admins, writers of any unit and pull request readers", () => {
    expect(mayBeAssigned(permission("admin"))).toBe(true);
    expect(mayBeAssigned(permission("none", { "repo.wiki": "write" }))).toBe(true);
    expect(mayBeAssigned(permission("none", { "repo.pulls": "read" }))).toBe(true);
    expect(mayBeAssigned(permission("read", { "repo.pulls": "none" }))).toBe(false);
  });

  it("lets a referencing commit close for writers and the poster, comment for readers", () => {
    expect(referenceRights(permission("write"), issue(3), 2)).toEqual({ close: true, comment: true });
    expect(referenceRights(permission("read"), issue(2), 2)).toEqual({ close: true, comment: true });
    expect(referenceRights(permission("read"), issue(3), 2)).toEqual({ close: false, comment: true });
    expect(referenceRights(permission("none"), issue(3), 2)).toEqual({ close: false, comment: false });
  });

  it("changes a subscription for oneself or as a site admin", () => {
    expect(mayChangeSubscriptionOf(user(2), user(2))).toBe(true);
    expect(mayChangeSubscriptionOf(user(2), user(3))).toBe(false);
    expect(mayChangeSubscriptionOf(siteAdmin, user(3))).toBe(true);
  });
});

describe("time tracking", () => {
  it("is for writers, the poster and assignees", () => {
    expect(mayTrackTime(caller("write"), issue(3), false)).toBe(true);
    expect(mayTrackTime(caller("read"), issue(2), false)).toBe(true);
    expect(mayTrackTime(caller("read"), issue(3), false)).toBe(false);
    expect(mayTrackTime(caller("read"), issue(3), true)).toBe(true);
    expect(mayTrackTime(caller("admin", null), issue(3), true)).toBe(false);
  });

  it("shows everyone's times to writers (admins for the older route) and site admins", () => {
    expect(managesTimes(caller("write"), false)).toBe(true);
    expect(managesTimes(caller("write"), false, "admins")).toBe(false);
    expect(managesTimes(caller("admin"), false, "admins")).toBe(true);
    expect(managesTimes(caller("read", siteAdmin), false, "admins")).toBe(true);
    expect(managesTimes(caller("read"), false)).toBe(false);
  });

  it("records for others as an admin, and deletes one's own times", () => {
    expect(mayTrackTimeForOthers(caller("admin"))).toBe(true);
    expect(mayTrackTimeForOthers(caller("write"))).toBe(false);
    expect(mayDeleteTime(user(2), { userId: 2 })).toBe(true);
    expect(mayDeleteTime(user(2), { userId: 3 })).toBe(false);
    expect(mayDeleteTime(user(2), { userId: null })).toBe(false);
    expect(mayDeleteTime(siteAdmin, { userId: null })).toBe(true);
  });
});
