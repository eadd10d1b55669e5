import { branchesPage } from "./branches.js";
import { commitPage } from "./commit.js";
import { commitsPage } from "./commits.js";
import { pullFileRoutes } from "./pull-files.js";
import { tagsPage } from "./tags.js";

/**
 * The history pages: commits of a ref or path, one commit, branches, tags, a pull request's
 * commits and files. The archives the tags link to are the API app's (`archiveResponse`).
 */
export const historyRoutes = [commitsPage, commitPage, branchesPage, tagsPage, ...pullFileRoutes];
