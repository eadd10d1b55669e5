import { qs } from "../../query.js";
import { attachmentRoutes } from "../shared/attachment-routes.js";

/**
 * Forgejo's routers/api/v1/repo/issue_attachment.go and issue_comment_attachment.go: files of
 * issues, pull requests and their comments, uploaded as a multipart `attachment` under
 * `[attachment] MAX_SIZE` and `ALLOWED_TYPES` (422 for a refused type, as Forgejo), counted
 * against the repository's owner. Registered only with `[attachment] ENABLED`.
 */

/** An issue's attachments (`/issues/{index}/assets…`). */
export const issueAttachmentRoutes = attachmentRoutes({
  name: "Issue",
  path: "/repos/{owner}/{repo}/issues/{index}/assets",
  params: { index: qs.int("index of the issue", { min: 1 }) },
  summaries: [
    "List issue's attachments",
    "Create an issue attachment",
    "Get an issue attachment",
    "Edit an issue attachment",
    "Delete an issue attachment",
  ],
  list: (svc, repo, { index }) => svc.listOfIssue(repo, index),
  find: async (svc, repo, { index, attachment_id }, writable) =>
    svc.ofIssue(
      repo,
      await (writable ? svc.writableIssue(repo, index) : svc.issue(repo, index)),
      attachment_id,
    ),
  target: async (svc, repo, { index }) => ({ issueId: (await svc.writableIssue(repo, index)).id }),
});

/** Comment attachments (`/issues/comments/{id}/assets…`). */
export const issueCommentAttachmentRoutes = attachmentRoutes({
  name: "IssueComment",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/assets",
  params: { id: qs.int("id of the comment") },
  summaries: [
    "List comment's attachments",
    "Create a comment attachment",
    "Get a comment attachment",
    "Edit a comment attachment",
    "Delete a comment attachment",
  ],
  list: (svc, repo, { id }) => svc.listOfComment(repo, id),
  find: async (svc, repo, { id, attachment_id }, writable) =>
    svc.ofComment(
      repo,
      await (writable ? svc.writableComment(repo, id) : svc.comment(repo, id)),
      attachment_id,
    ),
  target: async (svc, repo, { id }) => {
    const { comment } = await svc.writableComment(repo, id);
    return { issueId: comment.issueId, commentId: comment.id };
  },
});
