import type {
  Paged,
  PageRequest,
  QuotaUsedArtifact,
  QuotaUsedAttachment,
  QuotaUsedPackage,
} from "@kiln/domain";

/** Who is looking at a used-item list, as far as the list must care. */
export interface UsedItemScope {
  /**
   * The caller's token is `public-only`: the list shows only objects of public repositories
   * (and public packages), since private things are invisible to such tokens.
   */
  readonly publicOnly: boolean;
}

/**
 * Lists one kind of stored object counting against an owner's quota, largest first, one page at
 * a time with the total (the API's `X-Total-Count`), as `scope` may see them. The feature that
 * stores the objects provides it.
 */
export type UsedItemLister<T> = (
  ownerId: number,
  page: PageRequest,
  scope: UsedItemScope,
) => Promise<Paged<T>>;

/** The listers of `/user/quota/{attachments,packages,artifacts}`, by kind. */
export interface UsedItemListers {
  attachments: UsedItemLister<QuotaUsedAttachment>;
  packages: UsedItemLister<QuotaUsedPackage>;
  artifacts: UsedItemLister<QuotaUsedArtifact>;
}

/** The kinds of used-item lists. */
export type UsedItemKind = keyof UsedItemListers;

/**
 * Kiln has no attachments, packages or Actions artifacts yet, so nothing of those kinds counts
 * against anyone: each list is empty until its feature registers a lister
 * (`QuotaService.registerUsedItems`).
 */
export function emptyListers(): UsedItemListers {
  const none = async () => ({ items: [], total: 0 });
  return { attachments: none, packages: none, artifacts: none };
}
