import { GitInvalidArgumentError } from "../errors/git-error.js";

const OWNER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const REPO_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Checks an owner and repository name the way Forgejo's name rules do and returns their
 * lower-cased forms, which name the directory `<owner>/<name>.git`.
 */
export function normalizeRepoName(owner: string, name: string): { owner: string; name: string } {
  if (!OWNER_NAME.test(owner) || owner.length > 255) {
    throw new GitInvalidArgumentError(`invalid owner name: ${JSON.stringify(owner)}`);
  }
  if (!REPO_NAME.test(name) || name === "." || name === ".." || name.length > 255) {
    throw new GitInvalidArgumentError(`invalid repository name: ${JSON.stringify(name)}`);
  }
  return { owner: owner.toLowerCase(), name: name.toLowerCase() };
}
