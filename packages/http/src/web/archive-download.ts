import { downloadActor } from "../attachments/download-caller.js";
import type { Mount } from "../env.js";
import { archiveResponse } from "../routes/repo/archive.js";

/**
 * `GET {ROOT_URL}{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle`: a release's `zipball_url` and
 * `tarball_url`, and the code pages' download links (Forgejo's web `/archive/*`, repo.Download).
 * The same archive as the API's `/repos/{owner}/{repo}/archive/{archive}`, streamed, for a
 * browser's session or an API client's credentials ({@link downloadActor}); 404 unless the caller
 * may read the repository's code.
 */
export function mountArchiveDownloads(mount: Mount): void {
  mount("get", "/:owner/:repo/archive/:archive{.+}", async (c) => {
    const actor = await downloadActor(c, "repository");
    const access = await c
      .get("services")
      .access.repo(actor, c.req.param("owner") ?? "", c.req.param("repo") ?? "", {
        read: "repo.code",
        hiddenWithout: "repo.code",
      });
    return archiveResponse(c, access.repo, c.req.param("archive") ?? "");
  });
}
