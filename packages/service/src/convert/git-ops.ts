import type { api } from "@kiln/domain";
import type * as v from "valibot";
import type { AnnotatedTagView } from "../git/annotated-tag-service.js";
import { type RepoLinks, toCommitUser, toVerification } from "./git.js";

/**
 * An annotated tag as Forgejo's convert.ToAnnotatedTag: `object` is the commit the tag points at
 * and `verification` that commit's signature check.
 */
export function toAnnotatedTag(
  view: AnnotatedTagView,
  links: RepoLinks,
): v.InferOutput<typeof api.AnnotatedTag> {
  const { tag } = view;
  const object = tag.commit
    ? { sha: tag.commit.sha, type: "commit", url: `${links.api}/git/commits/${tag.commit.sha}` }
    : {
        sha: tag.object.sha,
        type: tag.object.type,
        url: `${links.api}/git/${tag.object.type}s/${tag.object.sha}`,
      };
  return {
    tag: tag.name,
    sha: tag.sha,
    url: `${links.api}/git/tags/${tag.sha}`,
    message: tag.message,
    tagger: tag.tagger ? toCommitUser(tag.tagger) : { name: "", email: "", date: "" },
    object,
    verification: tag.commit ? toVerification(tag.commit, view.verification) : null,
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
