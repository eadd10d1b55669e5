import type { AccessService } from "../access/access-service.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";
import type { UserService } from "../users/user-service.js";
import { CommentService } from "./comment-service.js";
import { IssueDependencyService } from "./issue-dependency-service.js";
import { IssueEditService } from "./issue-edit-service.js";
import { IssueLabelService } from "./issue-label-service.js";
import { IssueSearchService } from "./issue-search-service.js";
import { IssueService } from "./issue-service.js";
import { IssueStateService } from "./issue-state-service.js";
import { IssueTemplateService } from "./issue-template-service.js";
import { IssueWatchService } from "./issue-watch-service.js";
import { LabelService } from "./label-service.js";
import { MilestoneService } from "./milestone-service.js";
import { ReactionService } from "./reaction-service.js";
import { TimeService } from "./time-service.js";
import { TimelineService } from "./timeline-service.js";

/** The issue services: issues, their comments, labels, milestones, times, watches and timeline. */
export interface IssuesArea {
  readonly labels: LabelService;
  readonly issues: IssueService;
  readonly issueEdits: IssueEditService;
  readonly issueSearch: IssueSearchService;
  readonly comments: CommentService;
  readonly issueLabels: IssueLabelService;
  readonly times: TimeService;
  readonly issueWatches: IssueWatchService;
  readonly reactions: ReactionService;
  readonly issueStates: IssueStateService;
  readonly issueDependencies: IssueDependencyService;
  readonly timeline: TimelineService;
  readonly issueTemplates: IssueTemplateService;
  readonly milestones: MilestoneService;
}

/** What the issue services are built over, from the areas below them. */
export interface IssuesAreaDeps {
  readonly access: AccessService;
  readonly permissions: PermissionService;
  readonly repos: RepoService;
  readonly users: UserService;
}

/** Builds the issue area, each service once, sharing the one IssueService. */
export function issuesArea(ctx: ServiceContext, deps: IssuesAreaDeps): IssuesArea {
  const { access, permissions, repos, users } = deps;
  const issues = new IssueService(ctx, permissions);
  const times = new TimeService(ctx, issues);
  return {
    labels: new LabelService(ctx),
    issues,
    issueEdits: new IssueEditService(ctx, permissions, issues),
    issueSearch: new IssueSearchService(ctx, access),
    comments: new CommentService(ctx, issues),
    issueLabels: new IssueLabelService(ctx, issues),
    times,
    issueWatches: new IssueWatchService(ctx, issues, users),
    reactions: new ReactionService(ctx, issues),
    issueStates: new IssueStateService(ctx, issues),
    issueDependencies: new IssueDependencyService(ctx, access, issues),
    timeline: new TimelineService(ctx, access, issues, times),
    issueTemplates: new IssueTemplateService(repos),
    milestones: new MilestoneService(ctx),
  };
}
