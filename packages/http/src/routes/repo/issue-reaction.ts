import { qs } from "../../query.js";
import { reactionRoutes } from "../shared/reaction-routes.js";

/**
 * Forgejo's routers/api/v1/repo/issue_reaction.go: reactions to issues and comments, of the kinds
 * `[ui] REACTIONS` allows (others are 403). Any reader may react, except on a locked issue.
 */

const commentReactionRoutes = reactionRoutes({
  name: "Comment",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/reactions",
  key: "id",
  keySchema: qs.int("id of the comment"),
  summaries: [
    "Get a list of reactions from a comment of an issue",
    "Add a reaction to a comment of an issue",
    "Remove a reaction from a comment of an issue",
  ],
  list: (svc, repo, id, page) => svc.listForComment(repo, id, page),
  add: (svc, repo, id, content) => svc.addToComment(repo, id, content),
  remove: (svc, repo, id, content) => svc.removeFromComment(repo, id, content),
});

const issueOwnReactionRoutes = reactionRoutes({
  name: "Issue",
  path: "/repos/{owner}/{repo}/issues/{index}/reactions",
  key: "index",
  keySchema: qs.int("index of the issue", { min: 1 }),
  summaries: [
    "Get a list reactions of an issue",
    "Add a reaction to an issue",
    "Remove a reaction from an issue",
  ],
  list: (svc, repo, index, page) => svc.listForIssue(repo, index, page),
  add: (svc, repo, index, content) => svc.addToIssue(repo, index, content),
  remove: (svc, repo, index, content) => svc.removeFromIssue(repo, index, content),
});

/** Reactions to issues and to their comments. */
export const issueReactionRoutes = [...commentReactionRoutes, ...issueOwnReactionRoutes];
