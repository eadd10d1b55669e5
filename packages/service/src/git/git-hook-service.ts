import { PermissionDeniedError } from "@kiln/domain";

/** Forgejo's answer when `CanEditGitHook` is false (its `reqGitHook` middleware). */
export const GIT_HOOKS_REFUSED = "must be allowed to edit Git hooks";

/**
 * Server-side git hooks of a repository (Forgejo's routers/api/v1/repo/git_hook.go). Forgejo lets
 * a user edit them only when `[security] DISABLE_GIT_HOOKS` is false and the user is a site admin
 * or allowed to create git hooks; the default is `true`, so it refuses everyone. Kiln never runs
 * hook scripts a user supplies (they would run arbitrary programs on the server), so it answers as
 * Forgejo does under that default, for every caller, and has no setting to change it.
 */
export class GitHookService {
  /** Always refuses: no one may list, read, edit or delete a repository's git hooks. */
  assertEditable(): never {
    throw new PermissionDeniedError(GIT_HOOKS_REFUSED);
  }
}
