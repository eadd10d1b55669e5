/** Forgejo's ActionType numbers (models/activities/action.go), by the names its API answers. */
export const ActionType = {
  create_repo: 1,
  rename_repo: 2,
  star_repo: 3,
  watch_repo: 4,
  commit_repo: 5,
  create_issue: 6,
  create_pull_request: 7,
  transfer_repo: 8,
  push_tag: 9,
  comment_issue: 10,
  merge_pull_request: 11,
  close_issue: 12,
  reopen_issue: 13,
  close_pull_request: 14,
  reopen_pull_request: 15,
  delete_tag: 16,
  delete_branch: 17,
  mirror_sync_push: 18,
  mirror_sync_create: 19,
  mirror_sync_delete: 20,
  approve_pull_request: 21,
  reject_pull_request: 22,
  comment_pull: 23,
  publish_release: 24,
  pull_review_dismissed: 25,
  pull_request_ready_for_review: 26,
  auto_merge_pull_request: 27,
} as const;
export type ActionTypeName = keyof typeof ActionType;

const NAMES = new Map<number, ActionTypeName>(
  Object.entries(ActionType).map(([name, n]) => [n, name as ActionTypeName]),
);

/** The API name of an ActionType number (Forgejo's ActionType.String), "" for an unknown one. */
export function actionTypeName(opType: number): ActionTypeName | "" {
  return NAMES.get(opType) ?? "";
}
