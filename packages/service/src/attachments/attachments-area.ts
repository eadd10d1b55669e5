import { attachments as attachmentQueries } from "@kiln/storage";
import type { AccessService } from "../access/access-service.js";
import type { ServiceContext } from "../context.js";
import type { CronRegistry } from "../cron/cron-registry.js";
import type { TagService } from "../git/tag-service.js";
import type { CommentService } from "../issues/comment-service.js";
import type { IssueService } from "../issues/issue-service.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { QuotaService } from "../quota/quota-service.js";
import { ReleaseService } from "../releases/release-service.js";
import { AttachmentService } from "./attachment-service.js";
import { IssueAttachmentService } from "./issue-attachment-service.js";

/** Releases and the files attached to them, to issues and to comments. */
export interface AttachmentsArea {
  /** Attachments of releases, issues and comments, and their blob store. */
  readonly attachments: AttachmentService;
  readonly releases: ReleaseService;
  readonly issueAttachments: IssueAttachmentService;
}

export interface AttachmentsAreaDeps {
  readonly access: AccessService;
  readonly cron: CronRegistry;
  readonly ledger: QuotaLedger;
  readonly quota: QuotaService;
  readonly tags: TagService;
  readonly issues: IssueService;
  readonly comments: CommentService;
}

/**
 * Builds the attachments area. Attachments are blobs the cron sweep keeps in check, they count
 * in their repository's quota (and move with it to a new owner), and the quota's "used" listing
 * shows them.
 */
export function attachmentsArea(ctx: ServiceContext, deps: AttachmentsAreaDeps): AttachmentsArea {
  const attachments = new AttachmentService(ctx, deps.access);
  deps.cron.registerBlobKind(attachments.blobKind());
  deps.ledger.registerRepositoryAssets((db, repoId) => attachmentQueries.sumOfRepository(db, repoId));
  deps.quota.registerUsedItems("attachments", (ownerId, page, scope) =>
    attachments.usedBy(ownerId, page, scope.publicOnly),
  );
  return {
    attachments,
    releases: new ReleaseService(ctx, deps.tags),
    issueAttachments: new IssueAttachmentService(deps.issues, deps.comments, attachments),
  };
}
