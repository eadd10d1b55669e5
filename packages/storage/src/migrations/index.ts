import type { Migration } from "kysely";
import * as m0001 from "./2026-11-21-0001-accounts.js";
import * as m0002 from "./2026-11-21-0002-organizations-repositories.js";
import * as m0003 from "./2026-11-21-0003-quota-usage.js";
import * as m0004 from "./2026-11-21-0004-quota-rules.js";
import * as m0005 from "./2026-11-21-0005-repository-git.js";
import * as m0006 from "./2026-11-24-0006-issues.js";
import * as m0007 from "./2026-11-24-0007-notification-per-issue.js";
import * as m0008 from "./2026-11-24-0008-issue-relations.js";
import * as m0009 from "./2026-11-24-0009-issue-list-order.js";
import * as m0010 from "./2026-11-25-0010-pull-requests.js";
import * as m0012 from "./2026-11-25-0012-attachments-releases.js";
import * as m0013 from "./2026-11-25-0013-packages.js";
import * as m0014 from "./2026-11-25-0014-action-artifacts.js";
import * as m0015 from "./2026-11-26-0015-watches-stars-follows.js";
import * as m0017 from "./2026-11-26-0017-webhooks.js";
import * as m0018 from "./2026-11-26-0018-oauth2.js";
import * as m0019 from "./2026-11-26-0019-keys.js";
import * as m0020 from "./2026-11-26-0020-admin-avatars.js";
import * as m0021 from "./2026-11-26-0021-mirrors.js";
import * as m0022 from "./2026-11-26-0022-topics.js";
import * as m0023 from "./2026-11-26-0023-commit-statuses.js";
import * as m0024 from "./2026-11-26-0024-two-factor-attempts.js";
import * as m0025 from "./2026-11-26-0025-wiki.js";
import * as m0026 from "./2026-11-26-0026-forks.js";
import * as m0027 from "./2026-11-26-0027-actions-settings.js";
import * as m0028 from "./2026-11-26-0028-protected-tags.js";
import * as m0029 from "./2026-11-26-0029-blocks-redirects.js";
import * as m0030 from "./2026-11-26-0030-repo-flags.js";
import * as m0031 from "./2026-11-26-0031-repo-deletions.js";
import * as m0038 from "./2026-11-29-0038-lfs-locks.js";
import * as m0040 from "./2026-11-29-0040-ref-updates.js";

/** Every migration, by name; names sort in the order they must run. Frozen once released. */
export const migrations: Readonly<Record<string, Migration>> = {
  "2026-11-21-0001-accounts": m0001,
  "2026-11-21-0002-organizations-repositories": m0002,
  "2026-11-21-0003-quota-usage": m0003,
  "2026-11-21-0004-quota-rules": m0004,
  "2026-11-21-0005-repository-git": m0005,
  "2026-11-24-0006-issues": m0006,
  "2026-11-24-0007-notification-per-issue": m0007,
  "2026-11-24-0008-issue-relations": m0008,
  "2026-11-24-0009-issue-list-order": m0009,
  "2026-11-25-0010-pull-requests": m0010,
  "2026-11-25-0012-attachments-releases": m0012,
  "2026-11-25-0013-packages": m0013,
  "2026-11-25-0014-action-artifacts": m0014,
  "2026-11-26-0015-watches-stars-follows": m0015,
  "2026-11-26-0017-webhooks": m0017,
  "2026-11-26-0018-oauth2": m0018,
  "2026-11-26-0019-keys": m0019,
  "2026-11-26-0020-admin-avatars": m0020,
  "2026-11-26-0021-mirrors": m0021,
  "2026-11-26-0022-topics": m0022,
  "2026-11-26-0023-commit-statuses": m0023,
  "2026-11-26-0024-two-factor-attempts": m0024,
  "2026-11-26-0025-wiki": m0025,
  "2026-11-26-0026-forks": m0026,
  "2026-11-26-0027-actions-settings": m0027,
  "2026-11-26-0028-protected-tags": m0028,
  "2026-11-26-0029-blocks-redirects": m0029,
  "2026-11-26-0030-repo-flags": m0030,
  "2026-11-26-0031-repo-deletions": m0031,
  "2026-11-29-0038-lfs-locks": m0038,
  "2026-11-29-0040-ref-updates": m0040,
};
