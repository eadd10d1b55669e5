import { NotFoundError, type Paged, type PageRequest, type User } from "@kiln/domain";
import { emails, type RepoViewer, type UserOrder, users } from "@kiln/storage";
import { canSeeAccount } from "../access/org-permission.js";
import type { ServiceContext } from "../context.js";
import { canSeeUser } from "./visibility.js";

/** Finding and listing accounts: the read half of UserService. */
export class UserLookups {
  constructor(protected readonly ctx: ServiceContext) {}

  /** The account with this name; NotFoundError when there is none or `viewer` may not see it. */
  async getVisible(name: string, viewer: User | null): Promise<User> {
    const user = await users.findUserByName(this.ctx.db, name);
    if (!user || (user.type === "individual" && !canSeeUser(viewer, user))) throw userNotFound(name);
    return user;
  }

  /** The account with this name, whoever asks (admin routes); NotFoundError when absent. */
  async getByName(name: string): Promise<User> {
    const user = await users.findUserByName(this.ctx.db, name);
    if (!user) throw userNotFound(name);
    return user;
  }

  /** The account with this name (users and organizations alike), or undefined. */
  async findByName(name: string): Promise<User | undefined> {
    return users.findUserByName(this.ctx.db, name);
  }

  /** The user whose (primary or secondary) e-mail address this is, or undefined. */
  async findByEmail(email: string): Promise<User | undefined> {
    const address = await emails.findEmail(this.ctx.db, email);
    return address ? users.findUserById(this.ctx.db, address.userId) : undefined;
  }

  /** The accounts owning these addresses, by lower-cased address, from one query. */
  async findByEmails(addresses: Iterable<string>): Promise<ReadonlyMap<string, User>> {
    return users.findUsersByEmails(this.ctx.db, addresses);
  }

  /** The account with this id, or undefined. */
  /** The accounts with these ids (those that exist), in no particular order. */
  async findByIds(ids: readonly number[]): Promise<User[]> {
    return users.findUsersByIds(this.ctx.db, ids);
  }

  async findById(id: number): Promise<User | undefined> {
    return users.findUserById(this.ctx.db, id);
  }

  /**
   * `GET /users/search`: individual users matching `q` (or the one with `uid`) that `viewer` may
   * see; with `type: "organization"`, organizations instead (the explore page's search). With
   * `byEmail`, `q` also matches e-mail addresses the viewer may see (public ones and their own;
   * every one for an admin), as Forgejo's API search does; the explore pages match names only.
   */
  async search(
    viewer: RepoViewer,
    opts: { q?: string; uid?: number; type?: "individual" | "organization"; byEmail?: boolean },
    page: PageRequest,
  ): Promise<Paged<User>> {
    const type = opts.type ?? "individual";
    if (opts.uid !== undefined && opts.uid > 0) {
      const user = await users.findUserById(this.ctx.db, opts.uid);
      const items = user && user.type === type && canSeeAccount(viewer, user, false) ? [user] : [];
      return { items, total: items.length };
    }
    return users.listUsers(
      this.ctx.db,
      {
        type,
        keyword: opts.q ?? "",
        visibleTo: viewer,
        orderBy: "alphabetically",
        ...(opts.byEmail ? { emailSearch: { viewer } } : {}),
      },
      page,
    );
  }

  /** `GET /admin/users`: every individual user, filterable by login source and name. */
  async listForAdmin(
    opts: {
      q?: string;
      loginName?: string;
      sourceId?: number;
      sort?: UserOrder;
    },
    page: PageRequest,
  ): Promise<Paged<User>> {
    return users.listUsers(
      this.ctx.db,
      {
        type: "individual",
        ...(opts.q ? { keyword: opts.q, emailSearch: "all" as const } : {}),
        ...(opts.loginName !== undefined ? { loginName: opts.loginName } : {}),
        ...(opts.sourceId !== undefined ? { sourceId: opts.sourceId } : {}),
        orderBy: opts.sort ?? "alphabetically",
      },
      page,
    );
  }
}

/** Forgejo's message for an unknown or hidden account. */
export function userNotFound(name: string): NotFoundError {
  return new NotFoundError(`user does not exist [name: ${name}]`);
}
