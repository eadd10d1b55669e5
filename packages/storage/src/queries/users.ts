import type { AccountType, Paged, PageRequest, User, Visibility } from "@kiln/domain";
import { sql } from "kysely";
import type { Db, NewUserRow, UserUpdate } from "../database.js";
import { cachedRead } from "../read-cache.js";
import { paged } from "./paging.js";
import { deleteUserRedirect } from "./redirects.js";
import { accountVisibleTo, type RepoViewer } from "./repo-visibility.js";
import { releaseUserCounters } from "./social-counters.js";
import { USER_COLUMNS } from "./user-columns.js";

/**
 * Inserts an account and returns it. A taken name violates the unique index on lower_name. A
 * redirect an earlier rename left on the name is removed (the name is the new account's now).
 */
export async function insertUser(db: Db, values: NewUserRow): Promise<User> {
  const user = await db.insertInto("users").values(values).returning(USER_COLUMNS).executeTakeFirstOrThrow();
  await deleteUserRedirect(db, user.name);
  return user;
}

/** The account with this id, or undefined. */
export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db.selectFrom("users").select(USER_COLUMNS).where("id", "=", id).executeTakeFirst();
}

/** Most addresses {@link findUsersByEmails} looks up at once (a bound on the query's parameters). */
const MAX_EMAILS_PER_LOOKUP = 1000;

/**
 * The accounts owning these e-mail addresses (primary or not, case-insensitively), by lower-cased
 * address, from one query per {@link MAX_EMAILS_PER_LOOKUP} addresses; unknown addresses are absent.
 * Goes through the read cache (it names commit authors; nothing is decided by it).
 */
export function findUsersByEmails(db: Db, addresses: Iterable<string>): Promise<ReadonlyMap<string, User>> {
  const wanted = [...new Set([...addresses].map((email) => email.toLowerCase()))]
    .filter((email) => email !== "" && !email.includes("\0"))
    .sort();
  return cachedRead(db, `users-by-email:${JSON.stringify(wanted)}`, () => loadUsersByEmails(db, wanted));
}

async function loadUsersByEmails(db: Db, wanted: readonly string[]): Promise<Map<string, User>> {
  const found = new Map<string, User>();
  for (let start = 0; start < wanted.length; start += MAX_EMAILS_PER_LOOKUP) {
    const rows = await db
      .selectFrom("emailAddress")
      .innerJoin("users", "users.id", "emailAddress.userId")
      .select(USER_COLUMNS.map((column) => `users.${column}` as const))
      .select("emailAddress.lowerEmail")
      .where("emailAddress.lowerEmail", "in", wanted.slice(start, start + MAX_EMAILS_PER_LOOKUP))
      .execute();
    for (const { lowerEmail, ...user } of rows) found.set(lowerEmail, user as User);
  }
  return found;
}

/** The account with this name (case-insensitive), or undefined. */
export async function findUserByName(db: Db, name: string): Promise<User | undefined> {
  // No account name holds a NUL byte, and PostgreSQL refuses one in text.
  if (name.includes("\0")) return undefined;
  return db
    .selectFrom("users")
    .select(USER_COLUMNS)
    .where("lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
}

/** The accounts with these ids, in no particular order. */
export async function findUsersByIds(db: Db, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  return db.selectFrom("users").select(USER_COLUMNS).where("id", "in", ids).execute();
}

/** The accounts with these names (case-insensitive), in no particular order. */
export async function findUsersByNames(db: Db, names: readonly string[]): Promise<User[]> {
  const lowered = [
    ...new Set(names.filter((name) => !name.includes("\0")).map((name) => name.toLowerCase())),
  ];
  if (lowered.length === 0) return [];
  return db.selectFrom("users").select(USER_COLUMNS).where("lowerName", "in", lowered).execute();
}

/**
 * Which of these names (case-insensitive) are accounts the viewer may see, lower-cased: a
 * rendered mention links only those, so that it never tells that a hidden account exists.
 */
export async function visibleAccountNames(
  db: Db,
  names: readonly string[],
  viewer: RepoViewer,
): Promise<Set<string>> {
  const lowered = [...new Set(names.map((name) => name.toLowerCase()))].filter(
    (name) => !name.includes("\0"),
  );
  if (lowered.length === 0) return new Set();
  const rows = await db
    .selectFrom("users")
    .select("users.lowerName")
    .where("users.lowerName", "in", lowered)
    .where(accountVisibleTo(viewer, "users"))
    .execute();
  return new Set(rows.map((row) => row.lowerName));
}

/** The stored password hash of an account ("" when it has none). */
export async function getPasswordHash(db: Db, id: number): Promise<string> {
  const row = await db.selectFrom("users").select("passwd").where("id", "=", id).executeTakeFirst();
  return row?.passwd ?? "";
}

/** Filters for listing accounts. `visibleTo` hides limited/private ones as Forgejo's search does. */
export interface UserFilter {
  readonly type?: AccountType;
  /** Matches name or full name (and e-mail, as `emailSearch` allows), case-insensitively. */
  readonly keyword?: string;
  /**
   * Whose e-mail the keyword matches too: everyone's (the admin list), or only addresses their
   * owners did not keep private plus the viewer's own (Forgejo's SearchByEmail). Absent: none,
   * so a private address never shows through a search that finds its owner.
   */
  readonly emailSearch?: "all" | { readonly viewer: RepoViewer };
  readonly loginName?: string;
  readonly sourceId?: number;
  readonly isAdmin?: boolean;
  /** Only accounts whose visibility is one of these (default: all). */
  readonly visibilities?: readonly Visibility[];
  /** Only accounts this viewer may see (the access module's fragment). */
  readonly visibleTo?: RepoViewer;
  readonly orderBy?: UserOrder;
}

/** Orders Forgejo's user lists accept (`sort` of `GET /admin/users`), plus plain id order. */
export type UserOrder =
  | "id"
  | "alphabetically"
  | "reversealphabetically"
  | "newest"
  | "oldest"
  | "recentupdate"
  | "leastupdate";

/** One page of accounts matching the filter, ordered by id unless asked otherwise. */
export async function listUsers(db: Db, filter: UserFilter, page: PageRequest): Promise<Paged<User>> {
  let q = db.selectFrom("users");
  if (filter.type) q = q.where("type", "=", filter.type);
  if (filter.loginName !== undefined) q = q.where("loginName", "=", filter.loginName);
  if (filter.sourceId !== undefined) q = q.where("loginSource", "=", filter.sourceId);
  if (filter.isAdmin !== undefined) q = q.where("isAdmin", "=", filter.isAdmin);
  if (filter.visibilities) q = q.where("visibility", "in", filter.visibilities);
  if (filter.visibleTo !== undefined) q = q.where(accountVisibleTo(filter.visibleTo, "users"));
  if (filter.keyword) {
    const pattern = `%${escapeLike(filter.keyword.toLowerCase())}%`;
    const emailSearch = filter.emailSearch;
    q = q.where((eb) => {
      const matches = [eb("lowerName", "like", pattern), eb(sql`lower(full_name)`, "like", pattern)];
      if (emailSearch !== undefined) {
        const email = eb(sql`lower(email)`, "like", pattern);
        const viewer = emailSearch === "all" ? undefined : emailSearch.viewer;
        if (emailSearch === "all" || viewer?.isAdmin) matches.push(email);
        else if (viewer) {
          matches.push(
            eb.and([email, eb.or([eb("keepEmailPrivate", "=", false), eb("id", "=", viewer.id)])]),
          );
        } else matches.push(eb.and([email, eb("keepEmailPrivate", "=", false)]));
      }
      return eb.or(matches);
    });
  }
  let rows = q.select(USER_COLUMNS);
  switch (filter.orderBy ?? "id") {
    case "alphabetically":
      rows = rows.orderBy("lowerName", "asc");
      break;
    case "reversealphabetically":
      rows = rows.orderBy("lowerName", "desc");
      break;
    case "newest":
      rows = rows.orderBy("createdAt", "desc").orderBy("id", "desc");
      break;
    case "oldest":
      rows = rows.orderBy("createdAt", "asc").orderBy("id", "asc");
      break;
    case "recentupdate":
      rows = rows.orderBy("updatedAt", "desc").orderBy("id", "desc");
      break;
    case "leastupdate":
      rows = rows.orderBy("updatedAt", "asc").orderBy("id", "asc");
      break;
    default:
      rows = rows.orderBy("id", "asc");
  }
  return paged(
    rows,
    q.select((eb) => eb.fn.countAll<number>().as("count")),
    page,
  );
}

/** Number of individual users (organizations excluded). */
export async function countIndividuals(db: Db): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("type", "=", "individual")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Applies a partial update and returns the account, or undefined when it does not exist. */
export async function updateUser(db: Db, id: number, patch: UserUpdate): Promise<User | undefined> {
  return db
    .updateTable("users")
    .set({ ...patch, updatedAt: new Date() })
    .where("id", "=", id)
    .returning(USER_COLUMNS)
    .executeTakeFirst();
}

/** Deletes an account; rows that belong only to it (e-mails, tokens, 2FA) go with it. */
/** Records a completed sign-in. */
export async function touchLastLogin(db: Db, id: number, at: Date): Promise<void> {
  await db.updateTable("users").set({ lastLoginAt: at }).where("id", "=", id).execute();
}

export async function deleteUser(db: Db, id: number): Promise<boolean> {
  await releaseUserCounters(db, id);
  const result = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Escapes LIKE wildcards so a keyword matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
