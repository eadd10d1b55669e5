import { AlreadyExistsError, InvalidArgumentError, NotFoundError } from "@kiln/domain";

/** Forgejo's quota errors (models/quota/errors.go), with its messages, as Kiln's error kinds. */
export const quotaErrors = {
  ruleExists: (name: string) => new AlreadyExistsError(`rule already exists: [name: ${name}]`),
  groupExists: (name: string) => new AlreadyExistsError(`group already exists: [name: ${name}]`),
  ruleInGroup: (group: string, rule: string) =>
    new AlreadyExistsError(`rule already in group: [group: ${group}, rule: ${rule}]`),
  ownerInGroup: (group: string, ownerId: number) =>
    new AlreadyExistsError(`user already in group: [group: ${group}, userID: ${ownerId}]`),
  /** Unknown rule, group, or a mapping that does not exist: Forgejo's plain `ctx.NotFound()`. */
  notFound: () => new NotFoundError(),
  /** A group named in a set of groups does not exist (422, as Forgejo's SetUserQuotaGroups). */
  unknownGroup: (name: string) => new InvalidArgumentError(`group not found: [group: ${name}]`),
  limitRequired: () => new InvalidArgumentError("[Limit]: Required"),
};
