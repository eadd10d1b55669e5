import type { Actor, RepoAccess, ReviewCommentView, Services } from "@kiln/service";
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { Avatar } from "../../components/avatar.js";
import { commentKey, type InlineComments } from "../../components/diff/diff-file.js";
import { TimeAgo } from "../../components/time-ago.js";

/** Reviews and line comments read for one files page: bounded, so a busy pull request costs a few queries. */
const MAX_REVIEWS = 50;
const MAX_COMMENTS_PER_REVIEW = 100;

function Comment(props: { view: ReviewCommentView; html: string }) {
  const { view } = props;
  return (
    <article class="review-comment" aria-label={`Comment by ${view.poster?.name ?? "Ghost"}`}>
      <p class="meta">
        {view.poster ? <Avatar user={view.poster} /> : null} <strong>{view.poster?.name ?? "Ghost"}</strong>{" "}
        <TimeAgo date={view.comment.createdAt} />
      </p>
      <div class="markup">{raw(props.html)}</div>
    </article>
  );
}

/**
 * The line comments of a pull request's reviews that the viewer may see (the review service
 * leaves out others' pending reviews), rendered (Markdown through the markup service) and keyed
 * by file and line for the diff. Comments whose line went away (outdated) are left out, as
 * Forgejo does unless asked.
 */
export async function reviewCommentsOf(
  services: Services,
  actor: Actor,
  access: RepoAccess,
  index: number,
): Promise<InlineComments> {
  const reviews = await services.reviews.list(access, index, { page: 1, limit: MAX_REVIEWS });
  const byLine = new Map<string, Child[]>();
  const context = `${access.repo.ownerName}/${access.repo.name}`;
  for (const review of reviews.items) {
    if (review.commentsCount === 0) continue;
    const found = await services.reviewComments.list(access, index, review.review.id, {
      page: 1,
      limit: MAX_COMMENTS_PER_REVIEW,
    });
    for (const view of found.items) {
      if (view.comment.invalidated) continue;
      const html = await services.markup.render(actor, {
        text: view.comment.content,
        mode: "comment",
        context,
      });
      const key = commentKey(view.comment.treePath, view.comment.line);
      byLine.set(key, [...(byLine.get(key) ?? []), <Comment view={view} html={html} />]);
    }
  }
  return new Map([...byLine].map(([key, list]) => [key, <div class="review-thread">{list}</div>]));
}
