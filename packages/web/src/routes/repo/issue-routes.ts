import { issueListPage, pullListPage } from "./issue-list.js";
import { issueViewPage, pullViewPage } from "./issue-view.js";
import { labelsPage } from "./labels.js";
import { milestonesPage } from "./milestones.js";

/** The issue tracker's pages: lists of issues and pull requests, one of each, labels and milestones. */
export const issueRoutes = [
  issueListPage,
  pullListPage,
  issueViewPage,
  pullViewPage,
  labelsPage,
  milestonesPage,
];
