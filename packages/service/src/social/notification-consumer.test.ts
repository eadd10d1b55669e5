import { CommentType, type Issue, type Repository, type User } from "@kiln/domain";
import { blocks, comments, issues, repositories } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { ForgeEvent } from "../events/event.js";
import { inRepo } from "../events/event-base.js";
import type { Services } from "../services.js";
import { notificationConsumer } from "./notification-consumer.js";

describe.each(DIALECTS)("notification consumer on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const user = async (): Promise<User> => {
    const name = uniqueName("u");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1" });
  };

  /** A public repository of `owner` with one issue (or pull request) posted by `poster`, mentioning `mentioned`. */
  const issueOf = async (
    owner: User,
    poster: User,
    mentioned: readonly User[],
    isPull = false,
  ): Promise<{ repo: Repository; issue: Issue }> => {
    const name = uniqueName("r");
    const repo = await repositories.insertRepository(s.ctx.db, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
      isPrivate: false,
    });
    const issue = await issues.insertIssue(
      s.ctx.db,
      {
        repoId: repo.id,
        posterId: poster.id,
        title: "t",
        content: "",
        ref: "",
        milestoneId: null,
        deadline: null,
        isPull,
      },
      1,
      new Date(),
    );
    await issues.markMentioned(
      s.ctx.db,
      issue.id,
      mentioned.map((m) => m.id),
    );
    return { repo, issue };
  };

  /** The notification rows of an issue, one per recipient. */
  const rowsOf = (issueId: number) =>
    s.ctx.db
      .selectFrom("notification")
      .select(["userId", "source", "commentId", "updatedBy", "status"])
      .where("issueId", "=", issueId)
      .orderBy("userId")
      .execute();

  it("notifies the poster and the mentioned of a new comment, not its author nor who blocks them", async () => {
    const [owner, poster, mentioned, blocker, actor] = [
      await user(),
      await user(),
      await user(),
      await user(),
      await user(),
    ];
    const { repo, issue } = await issueOf(owner, poster, [mentioned, blocker, actor]);
    await blocks.insertBlock(s.ctx.db, blocker.id, actor.id, new Date());
    const comment = await comments.insertComment(
      s.ctx.db,
      { issueId: issue.id, type: CommentType.comment, posterId: actor.id, content: "hi" },
      new Date(),
    );
    await notificationConsumer.consume(s.ctx.db, {
      ...inRepo(repo, actor.id),
      type: "issue_comment",
      action: "created",
      issueId: issue.id,
      commentId: comment.id,
    });
    expect(await rowsOf(issue.id)).toEqual(
      [poster, mentioned]
        .map((u) => ({ userId: u.id, source: 1, commentId: comment.id, updatedBy: actor.id, status: 1 }))
        .sort((a, b) => a.userId - b.userId),
    );
  });

  it("points a pull request's close at its timeline entry, as a pull request", async () => {
    const [owner, poster, actor] = [await user(), await user(), await user()];
    const { repo, issue } = await issueOf(owner, poster, [], true);
    const close = await comments.insertComment(
      s.ctx.db,
      { issueId: issue.id, type: CommentType.close, posterId: actor.id },
      new Date(),
    );
    await notificationConsumer.consume(s.ctx.db, {
      ...inRepo(repo, actor.id),
      type: "pull_request",
      action: "closed",
      issueId: issue.id,
      commentId: close.id,
    });
    expect(await rowsOf(issue.id)).toEqual([
      { userId: poster.id, source: 2, commentId: close.id, updatedBy: actor.id, status: 1 },
    ]);
  });

  it("notifies of changes no hook reports (issue_touched)", async () => {
    const [owner, poster, actor] = [await user(), await user(), await user()];
    const { repo, issue } = await issueOf(owner, poster, []);
    await notificationConsumer.consume(s.ctx.db, {
      ...inRepo(repo, actor.id),
      type: "issue_touched",
      issueId: issue.id,
      isPull: false,
      commentId: null,
    });
    expect(await rowsOf(issue.id)).toEqual([
      { userId: poster.id, source: 1, commentId: null, updatedBy: actor.id, status: 1 },
    ]);
  });

  it("notifies nobody of a deletion, an edited comment, a review request or an unknown doer's change", async () => {
    const [owner, poster, actor] = [await user(), await user(), await user()];
    const { repo, issue } = await issueOf(owner, poster, [], true);
    const base = inRepo(repo, actor.id);
    const silent: ForgeEvent[] = [
      { ...base, type: "pull_request", action: "deleted", issueId: issue.id },
      { ...base, type: "pull_request_comment", action: "edited", issueId: issue.id, commentId: 1 },
      { ...base, type: "pull_request_comment", action: "deleted", issueId: issue.id, commentId: 1 },
      {
        ...base,
        type: "pull_request_review_request",
        action: "review_requested",
        issueId: issue.id,
        reviewerId: poster.id,
        teamId: null,
      },
      { ...base, type: "pull_request", action: "closed", issueId: issue.id, ownerStandsIn: true },
      { ...base, type: "pull_request_sync", action: "synchronized", issueId: issue.id, ownerStandsIn: true },
    ];
    for (const event of silent) await notificationConsumer.consume(s.ctx.db, event);
    expect(await rowsOf(issue.id)).toEqual([]);
  });
});
