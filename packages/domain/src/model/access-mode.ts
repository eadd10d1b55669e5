/** Forgejo's access modes, weakest first. `owner` is what owners and site admins hold. */
export const ACCESS_MODES = ["none", "read", "write", "admin", "owner"] as const;

export type AccessMode = (typeof ACCESS_MODES)[number];

/** A number that orders access modes, for comparisons. */
export function accessRank(mode: AccessMode): number {
  return ACCESS_MODES.indexOf(mode);
}

/** The stronger of two modes. */
export function maxAccess(a: AccessMode, b: AccessMode): AccessMode {
  return accessRank(a) >= accessRank(b) ? a : b;
}

/** Whether `granted` is at least `required`. */
export function atLeast(granted: AccessMode, required: AccessMode): boolean {
  return accessRank(granted) >= accessRank(required);
}

/** Parses an access mode name; unknown names are undefined. */
export function parseAccessMode(value: string): AccessMode | undefined {
  return (ACCESS_MODES as readonly string[]).includes(value) ? (value as AccessMode) : undefined;
}
