const OID = /^[0-9a-f]{64}$/;

/** Whether `oid` is an LFS object id: 64 lower-case hex digits of a SHA-256. */
export function isValidLfsOid(oid: unknown): oid is string {
  return typeof oid === "string" && OID.test(oid);
}

/** Whether `size` is a valid LFS object size: a non-negative safe integer. */
export function isValidLfsSize(size: unknown): size is number {
  return typeof size === "number" && Number.isSafeInteger(size) && size >= 0;
}
