import {
  BadRequestError,
  InvalidArgumentError,
  isValidEmail,
  PermissionDeniedError,
  type User,
  usernameProblem,
  type Visibility,
} from "@kiln/domain";
import { type Db, emails, isUniqueViolation, type UserUpdate, users } from "@kiln/storage";
import { type CredentialCache, credentialCacheOf } from "../auth/credential-cache.js";
import { hashPassword } from "../auth/password.js";
import type { ServiceContext } from "../context.js";
import { UserLookups, userNotFound } from "./user-lookups.js";

export { userNotFound };

/** Forgejo's default `[security] MIN_PASSWORD_LENGTH`. */
export const MIN_PASSWORD_LENGTH = 8;

/** What creating a user takes (the admin API's and the CLI's `CreateUserOption`). */
export interface CreateUserInput {
  readonly username: string;
  readonly email: string;
  readonly password?: string;
  readonly fullName?: string;
  readonly loginName?: string;
  readonly sourceId?: number;
  readonly mustChangePassword?: boolean;
  readonly restricted?: boolean;
  readonly visibility?: Visibility;
  readonly isAdmin?: boolean;
  readonly createdAt?: Date;
}

/** What an admin may change on a user (`EditUserOption`); absent fields stay as they are. */
export interface AdminEditUserInput {
  readonly email?: string;
  readonly password?: string;
  readonly fullName?: string;
  readonly loginName?: string;
  readonly sourceId?: number;
  readonly mustChangePassword?: boolean;
  readonly active?: boolean;
  readonly admin?: boolean;
  readonly restricted?: boolean;
  readonly prohibitLogin?: boolean;
  readonly visibility?: Visibility;
  readonly location?: string;
  readonly website?: string;
  readonly description?: string;
  readonly pronouns?: string;
  readonly maxRepoCreation?: number;
  readonly allowCreateOrganization?: boolean;
  readonly allowGitHook?: boolean;
  readonly allowImportLocal?: boolean;
}

/** What a user may change about themselves (`UserSettingsOptions`). */
export interface UserSettingsInput {
  readonly fullName?: string;
  readonly website?: string;
  readonly description?: string;
  readonly location?: string;
  readonly pronouns?: string;
  readonly language?: string;
  readonly theme?: string;
  readonly diffViewStyle?: string;
  readonly hideEmail?: boolean;
  readonly hideActivity?: boolean;
  readonly hidePronouns?: boolean;
  readonly enableRepoUnitHints?: boolean;
}

/**
 * Something that may refuse an account's deletion (repositories owned, organizations led, …). It
 * runs in the deletion's transaction (`trx`); with `purge` it may delete rows there, and returns
 * the work to do once that transaction committed (removing files), if any.
 */
export type DeletionGuard = (
  user: User,
  opts: { purge: boolean },
  trx: Db,
) => Promise<(() => Promise<void>) | undefined>;

/**
 * Creating, finding, editing and deleting user accounts. Every change drops the account's
 * entries from the instance's credential cache once it is committed.
 */
export class UserService extends UserLookups {
  private readonly deletionGuards: DeletionGuard[] = [];

  constructor(
    ctx: ServiceContext,
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {
    super(ctx);
  }

  /** Registers a check that runs before an account is deleted (later features own these). */
  addDeletionGuard(guard: DeletionGuard): void {
    this.deletionGuards.push(guard);
  }

  /** Creates an individual user with a primary e-mail address. Errors as Forgejo's admin API. */
  async create(input: CreateUserInput): Promise<User> {
    const problem = usernameProblem(input.username);
    if (problem) throw new InvalidArgumentError(problem);
    if (!isValidEmail(input.email)) throw new InvalidArgumentError(`e-mail invalid [email: ${input.email}]`);
    const local = (input.sourceId ?? 0) === 0;
    if (local) checkPassword(input.password);
    const passwd = local && input.password ? await hashPassword(input.password) : "";
    return this.ctx.db.transaction().execute(async (trx) => {
      if (await users.findUserByName(trx, input.username)) throw userExists(input.username);
      if (await emails.findEmail(trx, input.email)) throw emailUsed(input.email);
      try {
        const user = await users.insertUser(trx, {
          name: input.username,
          lowerName: input.username.toLowerCase(),
          email: input.email,
          passwd,
          fullName: input.fullName ?? "",
          loginName: input.loginName ?? input.username,
          loginSource: input.sourceId ?? 0,
          mustChangePassword: input.mustChangePassword ?? false,
          isRestricted: input.restricted ?? false,
          isAdmin: input.isAdmin ?? false,
          visibility: input.visibility ?? "public",
          ...(input.createdAt ? { createdAt: input.createdAt } : {}),
        });
        await emails.insertEmail(trx, { userId: user.id, email: input.email, isPrimary: true });
        return user;
      } catch (err) {
        if (isUniqueViolation(err, "users_lower_name_key")) throw userExists(input.username);
        if (isUniqueViolation(err, "email_address_lower_email_key")) throw emailUsed(input.email);
        throw err;
      }
    });
  }

  /** `PATCH /admin/users/{username}`. The last site admin cannot lose the role (400, as Forgejo). */
  async adminEdit(target: User, input: AdminEditUserInput): Promise<User> {
    if (target.type !== "individual")
      throw new InvalidArgumentError(`${target.name} is an organization not a user`);
    if (input.password !== undefined && (input.sourceId ?? target.loginSource) === 0)
      checkPassword(input.password);
    if (input.maxRepoCreation !== undefined && input.maxRepoCreation < -1) {
      throw new InvalidArgumentError("max_repo_creation must be -1 (instance default) or more");
    }
    const passwd = input.password ? await hashPassword(input.password) : undefined;
    const edited = await this.ctx.db.transaction().execute(async (trx) => {
      if (input.admin === false && target.isAdmin) {
        const admins = await users.listUsers(
          trx,
          { type: "individual", isAdmin: true },
          { page: 1, limit: 2 },
        );
        if (admins.total <= 1) {
          throw new BadRequestError("You cannot remove the last admin. There must be at least one admin.");
        }
      }
      if (input.email !== undefined && input.email.toLowerCase() !== target.email.toLowerCase()) {
        if (!isValidEmail(input.email))
          throw new InvalidArgumentError(`e-mail invalid [email: ${input.email}]`);
        const existing = await emails.findEmail(trx, input.email);
        if (existing && existing.userId !== target.id) throw emailUsed(input.email);
        if (!existing)
          await emails.insertEmail(trx, { userId: target.id, email: input.email, isPrimary: false });
        await emails.setPrimaryEmail(trx, target.id, input.email);
      }
      const patch: UserUpdate = compact({
        email: input.email,
        passwd,
        fullName: input.fullName,
        loginName: input.loginName,
        loginSource: input.sourceId,
        mustChangePassword: input.mustChangePassword,
        isActive: input.active,
        isAdmin: input.admin,
        isRestricted: input.restricted,
        prohibitLogin: input.prohibitLogin,
        visibility: input.visibility,
        location: input.location,
        website: input.website,
        description: input.description,
        pronouns: input.pronouns,
        maxRepoCreation: input.maxRepoCreation,
        allowCreateOrganization: input.allowCreateOrganization,
        allowGitHook: input.allowGitHook,
        allowImportLocal: input.allowImportLocal,
      });
      const updated = await users.updateUser(trx, target.id, patch);
      if (!updated) throw userNotFound(target.name);
      return updated;
    });
    this.cache.forgetUser(target.id);
    return edited;
  }

  /**
   * Deletes a user. Refuses (422) deleting yourself, an organization, or — through the registered
   * guards — a user who still owns things, unless `purge` lets those guards clean up first.
   */
  async delete(target: User, doer: User | null, opts: { purge: boolean }): Promise<void> {
    if (doer && doer.id === target.id) throw new InvalidArgumentError("you cannot delete yourself");
    if (target.type !== "individual")
      throw new InvalidArgumentError(`${target.name} is an organization not a user`);
    // Every row goes in one transaction (the account and, with purge, what it owns); files after.
    const afterCommit: (() => Promise<void>)[] = [];
    const deleted = await this.ctx.db.transaction().execute(async (trx) => {
      for (const guard of this.deletionGuards) {
        const after = await guard(target, opts, trx);
        if (after) afterCommit.push(after);
      }
      return users.deleteUser(trx, target.id);
    });
    this.cache.forgetUser(target.id);
    if (!deleted) throw userNotFound(target.name);
    for (const after of afterCommit) await after();
  }

  /** Applies `PATCH /user/settings` to the signed-in user. */
  async updateSettings(user: User, input: UserSettingsInput): Promise<User> {
    const updated = await users.updateUser(
      this.ctx.db,
      user.id,
      compact({
        fullName: input.fullName,
        website: input.website,
        description: input.description,
        location: input.location,
        pronouns: input.pronouns,
        language: input.language,
        theme: input.theme,
        diffViewStyle: input.diffViewStyle,
        keepEmailPrivate: input.hideEmail,
        hideActivity: input.hideActivity,
        hidePronouns: input.hidePronouns,
        enableRepoUnitHints: input.enableRepoUnitHints,
      }),
    );
    this.cache.forgetUser(user.id);
    if (!updated) throw new PermissionDeniedError("the signed-in user no longer exists");
    return updated;
  }
}

function checkPassword(password: string | undefined): void {
  if (!password || password.length < MIN_PASSWORD_LENGTH) {
    throw new BadRequestError(
      `PasswordIsRequired: a password of at least ${MIN_PASSWORD_LENGTH} characters is required`,
    );
  }
}

function userExists(name: string): InvalidArgumentError {
  return new InvalidArgumentError(`user already exists [name: ${name}]`);
}

function emailUsed(email: string): InvalidArgumentError {
  return new InvalidArgumentError(`e-mail already in use [email: ${email}]`);
}

/** Drops undefined values so a partial update only touches what was given. */
function compact<T extends Record<string, unknown>>(obj: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as never;
}
