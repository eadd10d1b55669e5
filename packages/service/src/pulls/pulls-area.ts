import type { AccessService } from "../access/access-service.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import type { IssuesArea } from "../issues/issues-area.js";
import type { CommitVerifier } from "../keys/commit-verifier.js";
import type { PushPolicyService } from "../repos/push-policy-service.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import { MergeService } from "./merge-service.js";
import { PullChecker } from "./pull-check.js";
import { PullCompareService } from "./pull-compare-service.js";
import { PullEditService } from "./pull-edit-service.js";
import { PullService } from "./pull-service.js";
import { PullUpdateService } from "./pull-update-service.js";
import { PushTracker } from "./push-tracker.js";
import { ReviewCommentService } from "./review-comment-service.js";
import { ReviewRequestService } from "./review-request-service.js";
import { ReviewerRules } from "./review-rules.js";
import { ReviewService } from "./review-service.js";

/** The pull request services: checks, pull requests, merges, reviews and review requests. */
export interface PullsArea {
  readonly pullChecks: PullChecker;
  readonly pulls: PullService;
  readonly pullEdits: PullEditService;
  readonly pullCompare: PullCompareService;
  readonly pullUpdates: PullUpdateService;
  readonly merges: MergeService;
  readonly reviews: ReviewService;
  readonly reviewComments: ReviewCommentService;
  readonly reviewRequests: ReviewRequestService;
}

/** What the pull request services are built over. */
export interface PullsAreaDeps {
  readonly access: AccessService;
  readonly permissions: PermissionService;
  readonly repos: RepoService;
  readonly protections: BranchProtectionService;
  readonly commitVerifier: CommitVerifier;
  readonly pushPolicies: PushPolicyService;
  /** The one path that moves refs: merges and pull updates move branches through it. */
  readonly refUpdates: RefUpdates;
  readonly issues: Pick<IssuesArea, "issues" | "issueEdits" | "issueLabels">;
}

/** Builds the pull request area, each service once. */
export function pullsArea(ctx: ServiceContext, deps: PullsAreaDeps): PullsArea {
  const { access, permissions, repos, protections, commitVerifier, pushPolicies, refUpdates } = deps;
  const { issues, issueEdits, issueLabels } = deps.issues;
  const pullChecks = new PullChecker(ctx, repos, protections, new PushTracker());
  const pulls = new PullService(ctx, permissions, repos, issues, pullChecks, access);
  const merges = new MergeService(
    ctx,
    repos,
    refUpdates,
    pulls,
    protections,
    access,
    pullChecks,
    commitVerifier,
  );
  const reviewerRules = new ReviewerRules(ctx, permissions, protections);
  const reviews = new ReviewService(ctx, repos, pulls, merges, reviewerRules);
  return {
    pullChecks,
    pulls,
    pullEdits: new PullEditService(ctx, repos, pulls, issueEdits, issueLabels, pullChecks),
    pullCompare: new PullCompareService(repos, pulls),
    pullUpdates: new PullUpdateService(ctx, repos, refUpdates, pulls, protections, pullChecks, pushPolicies),
    merges,
    reviews,
    reviewComments: new ReviewCommentService(ctx, repos, reviews),
    reviewRequests: new ReviewRequestService(ctx, permissions, pulls, reviewerRules),
  };
}
