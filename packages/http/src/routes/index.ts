import type { AnyRoute } from "../route.js";
import { adminAdoptRoutes } from "./admin/adopt.js";
import { adminCronRoutes } from "./admin/cron.js";
import { adminEmailRoutes } from "./admin/email.js";
import { adminHookRoutes } from "./admin/hooks.js";
import { adminOrgRoutes } from "./admin/org.js";
import { adminQuotaRoutes } from "./admin/quota.js";
import { adminQuotaGroupRoutes } from "./admin/quota-group.js";
import { adminQuotaRuleRoutes } from "./admin/quota-rule.js";
import { adminRepoRoutes } from "./admin/repo.js";
import { adminRunnerRoutes } from "./admin/runners.js";
import { adminUserRoutes } from "./admin/user.js";
import { adminUserKeyRoutes } from "./admin/user-key.js";
import { activityFeedRoutes } from "./feed/activity-feed.js";
import { licenseRoutes } from "./misc/licenses.js";
import { markupRoutes } from "./misc/markup.js";
import { nodeInfoRoutes } from "./misc/nodeinfo.js";
import { signingKeyRoutes } from "./misc/signing.js";
import { templateRoutes } from "./misc/templates.js";
import { miscRoutes } from "./misc/version.js";
import { notifyRepoRoutes } from "./notify/repo.js";
import { notifyThreadRoutes } from "./notify/threads.js";
import { notifyUserRoutes } from "./notify/user.js";
import { orgActionRoutes } from "./org/action.js";
import { orgAvatarRoutes } from "./org/avatar.js";
import { orgBlockRoutes } from "./org/block.js";
import { orgHookRoutes } from "./org/hook.js";
import { orgLabelRoutes } from "./org/label.js";
import { memberRoutes } from "./org/member.js";
import { orgRoutes } from "./org/org.js";
import { orgQuotaRoutes } from "./org/quota.js";
import { teamRoutes } from "./org/team.js";
import { packageRoutes } from "./packages/package.js";
import { artifactRoutes } from "./repo/action-artifact.js";
import { repoActionRunRoutes } from "./repo/action-runs.js";
import { repoActionSettingsRoutes } from "./repo/action-settings.js";
import { archiveRoutes } from "./repo/archive.js";
import { repoAvatarRoutes } from "./repo/avatar.js";
import { blobRoutes } from "./repo/blob.js";
import { branchRoutes } from "./repo/branch.js";
import { branchProtectionRoutes } from "./repo/branch-protection.js";
import { collaboratorRoutes } from "./repo/collaborators.js";
import { commitDiffRoutes } from "./repo/commit-diff.js";
import { commitPullRoutes } from "./repo/commit-pull.js";
import { commitRoutes } from "./repo/commits.js";
import { compareRoutes } from "./repo/compare.js";
import { fileReadRoutes } from "./repo/file.js";
import { editorconfigRoutes } from "./repo/file-editorconfig.js";
import { fileWriteRoutes } from "./repo/file-write.js";
import { repoFlagRoutes } from "./repo/flags.js";
import { forkRoutes } from "./repo/fork.js";
import { gitHookRoutes } from "./repo/git-hook.js";
import { gitRefRoutes } from "./repo/git-ref.js";
import { repoHookRoutes } from "./repo/hook.js";
import { issueRoutes, issueSearchIssues } from "./repo/issue.js";
import { issueAttachmentRoutes, issueCommentAttachmentRoutes } from "./repo/issue-attachment.js";
import { issueCommentRoutes } from "./repo/issue-comment.js";
import { issueLabelRoutes } from "./repo/issue-label.js";
import { issueReactionRoutes } from "./repo/issue-reaction.js";
import { issuePinnedRoutes, issueRelationRoutes } from "./repo/issue-relation.js";
import { issueSubscriptionRoutes } from "./repo/issue-subscription.js";
import { issueTemplateRoutes } from "./repo/issue-template.js";
import { issueTimeRoutes } from "./repo/issue-time.js";
import { deployKeyRoutes } from "./repo/key.js";
import { labelRoutes } from "./repo/label.js";
import { languageRoutes } from "./repo/language.js";
import { migrateRoutes } from "./repo/migrate.js";
import { milestoneRoutes } from "./repo/milestone.js";
import { mirrorRoutes } from "./repo/mirror.js";
import { noteRoutes } from "./repo/notes.js";
import { patchRoutes } from "./repo/patch.js";
import { repoPeopleRoutes } from "./repo/people.js";
import { pullRoutes, repoGetPullRequestByBaseHead } from "./repo/pull.js";
import { pullFileRoutes } from "./repo/pull-files.js";
import { pullMergeRoutes } from "./repo/pull-merge.js";
import { pullReviewRoutes } from "./repo/pull-review.js";
import { releaseRoutes } from "./repo/release.js";
import { releaseAttachmentRoutes } from "./repo/release-attachment.js";
import { repoRoutes } from "./repo/repo.js";
import { deprecatedRepoRoutes } from "./repo/repo-deprecated.js";
import { repoGenerateRoutes } from "./repo/repo-generate.js";
import { repoStarRoutes } from "./repo/star.js";
import { statusRoutes } from "./repo/status.js";
import { repoSubscriberRoutes } from "./repo/subscriber.js";
import { syncForkRoutes } from "./repo/sync-fork.js";
import { tagRoutes } from "./repo/tag.js";
import { tagProtectionRoutes } from "./repo/tag-protection.js";
import { repoTeamRoutes } from "./repo/teams.js";
import { topicRoutes } from "./repo/topic.js";
import { transferRoutes } from "./repo/transfer.js";
import { treeRoutes } from "./repo/tree.js";
import { wikiRoutes } from "./repo/wiki.js";
import { settingsRoutes } from "./settings/settings.js";
import { userActionRoutes } from "./user/action.js";
import { tokenRoutes } from "./user/app.js";
import { oauth2ApplicationRoutes } from "./user/app-oauth2.js";
import { userAvatarRoutes } from "./user/avatar.js";
import { userBlockRoutes } from "./user/block.js";
import { emailRoutes } from "./user/email.js";
import { followerRoutes } from "./user/follower.js";
import { gpgKeyRoutes } from "./user/gpg-key.js";
import { heatmapRoutes } from "./user/heatmap.js";
import { userHookRoutes } from "./user/hook.js";
import { sshKeyRoutes } from "./user/key.js";
import { userQuotaRoutes } from "./user/quota.js";
import { userSettingsRoutes } from "./user/settings.js";
import { starRoutes } from "./user/star.js";
import { userRoutes } from "./user/user.js";
import { watchRoutes } from "./user/watch.js";

/** Every /api/v1 operation Kiln implements, static paths before parameterised ones. */
export const allRoutes: readonly AnyRoute[] = [
  ...miscRoutes,
  ...markupRoutes,
  ...licenseRoutes,
  ...signingKeyRoutes,
  ...nodeInfoRoutes,
  ...templateRoutes,
  ...settingsRoutes,
  ...userRoutes,
  ...heatmapRoutes,
  ...activityFeedRoutes,
  ...followerRoutes,
  ...userBlockRoutes,
  ...starRoutes,
  ...watchRoutes,
  ...notifyUserRoutes,
  ...notifyThreadRoutes,
  ...emailRoutes,
  ...userSettingsRoutes,
  ...tokenRoutes,
  ...gpgKeyRoutes,
  ...sshKeyRoutes,
  ...oauth2ApplicationRoutes,
  ...userHookRoutes,
  ...userActionRoutes,
  ...adminUserRoutes,
  ...adminUserKeyRoutes,
  ...adminCronRoutes,
  ...adminHookRoutes,
  ...adminOrgRoutes,
  ...adminRepoRoutes,
  ...adminEmailRoutes,
  ...adminAdoptRoutes,
  ...adminRunnerRoutes,
  ...userAvatarRoutes,
  ...orgRoutes,
  ...orgBlockRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...orgHookRoutes,
  ...orgAvatarRoutes,
  ...orgActionRoutes,
  ...userQuotaRoutes,
  ...orgQuotaRoutes,
  ...adminQuotaRoutes,
  ...adminQuotaRuleRoutes,
  ...adminQuotaGroupRoutes,
  ...packageRoutes,
  // Before /repos/{owner}/{repo}, which would take `issues` for an owner (Forgejo's order too).
  issueSearchIssues,
  ...repoRoutes,
  ...repoStarRoutes,
  ...repoSubscriberRoutes,
  ...notifyRepoRoutes,
  ...migrateRoutes,
  ...mirrorRoutes,
  ...collaboratorRoutes,
  // Before the webhook routes: their /hooks/{id} would take /hooks/git.
  ...gitHookRoutes,
  ...repoHookRoutes,
  ...deployKeyRoutes,
  ...transferRoutes,
  ...repoAvatarRoutes,
  ...artifactRoutes,
  ...repoActionSettingsRoutes,
  ...repoActionRunRoutes,
  // Before commitRoutes: `/git/commits/{sha}` would otherwise take `{sha}.diff` as its sha.
  ...commitDiffRoutes,
  ...commitRoutes,
  ...commitPullRoutes,
  ...deprecatedRepoRoutes,
  ...repoTeamRoutes,
  ...gitRefRoutes,
  ...treeRoutes,
  ...blobRoutes,
  ...fileReadRoutes,
  ...archiveRoutes,
  // Before `/issues/{index}`, which would take `comments` for an index.
  ...issueCommentRoutes,
  ...issueCommentAttachmentRoutes,
  ...issueReactionRoutes,
  ...issuePinnedRoutes,
  ...issueRoutes,
  ...issueLabelRoutes,
  ...issueTimeRoutes,
  ...issueAttachmentRoutes,
  ...issueSubscriptionRoutes,
  ...issueRelationRoutes,
  ...issueTemplateRoutes,
  ...labelRoutes,
  ...milestoneRoutes,
  ...orgLabelRoutes,
  ...fileWriteRoutes,
  ...branchRoutes,
  ...branchProtectionRoutes,
  ...tagRoutes,
  ...tagProtectionRoutes,
  ...noteRoutes,
  ...compareRoutes,
  ...editorconfigRoutes,
  ...patchRoutes,
  ...topicRoutes,
  ...repoFlagRoutes,
  ...repoPeopleRoutes,
  ...statusRoutes,
  ...releaseRoutes,
  ...releaseAttachmentRoutes,
  ...languageRoutes,
  ...pullRoutes,
  ...pullMergeRoutes,
  ...pullFileRoutes,
  ...pullReviewRoutes,
  ...wikiRoutes,
  // Last of the pull request routes: its rest-of-path head would take `1/commits` for a base and head.
  repoGetPullRequestByBaseHead,
  ...forkRoutes,
  ...syncForkRoutes,
  ...repoGenerateRoutes,
];
