import type { RepoUnit } from "@kiln/domain";
import { canRead, type RepoAccess } from "@kiln/service";
import type { RepoHeaderProps, RepoTab } from "../../layout/repo-header.js";

/** The unit each tab shows (a tab appears only when the viewer may read its unit). */
const UNIT_OF: Readonly<Record<RepoTab, RepoUnit>> = {
  code: "repo.code",
  issues: "repo.issues",
  pulls: "repo.pulls",
  releases: "repo.releases",
  wiki: "repo.wiki",
};

/**
 * The repository header of a page: the tabs whose unit the access module's permission lets the
 * viewer read, with the open issue and pull request counts.
 */
export function repoHeaderOf(access: RepoAccess, active: RepoTab): RepoHeaderProps {
  const { repo, permission } = access;
  const counts: Partial<Record<RepoTab, number>> = {
    issues: repo.numIssues - repo.numClosedIssues,
    pulls: repo.numPulls - repo.numClosedPulls,
  };
  const tabs = (Object.keys(UNIT_OF) as RepoTab[])
    .filter((tab) => canRead(permission, UNIT_OF[tab]))
    .map((tab) => (counts[tab] !== undefined ? { tab, count: counts[tab] } : { tab }));
  return { repo, active, tabs };
}
