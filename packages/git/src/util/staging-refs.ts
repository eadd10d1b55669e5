/**
 * Refs Kiln writes for its own work before they become visible ones (a pull mirror's fetched refs
 * before they replace the mirror's). Clients never see them: the transports hide them from
 * upload-pack and receive-pack (`transfer.hideRefs`), so they are neither advertised nor pushable.
 */
export const STAGING_REFS = "refs/kiln-staging/";
