/** Forgejo's repository units (the parts of a repository a team may be granted separately). */
export const REPO_UNITS = [
  "repo.code",
  "repo.issues",
  "repo.ext_issues",
  "repo.pulls",
  "repo.wiki",
  "repo.ext_wiki",
  "repo.releases",
  "repo.projects",
  "repo.packages",
  "repo.actions",
] as const;

export type RepoUnit = (typeof REPO_UNITS)[number];

/** Whether a string names a unit (unknown names are ignored, as Forgejo does). */
export function isRepoUnit(value: string): value is RepoUnit {
  return (REPO_UNITS as readonly string[]).includes(value);
}
