import {
  type AccessMode,
  maxAccess,
  type NotFoundError,
  type Package,
  PermissionDeniedError,
  type User,
} from "@kiln/domain";
import type { AccessService } from "../access/access-service.js";
import type { Actor } from "../access/actor.js";
import { mayWritePackages, orgPackageMode } from "../access/package-rules.js";

/** A package owner as a request sees it: the account and the caller's access to its packages. */
export interface PackageOwnerAccess {
  readonly owner: User;
  readonly actor: Actor;
  /** Forgejo's `ctx.Package.AccessMode` (site admins are held to nothing, see {@link mayWrite}). */
  readonly mode: AccessMode;
}

/** Forgejo's answer when the caller may not write an owner's packages. */
export const NO_PACKAGE_PERMISSION = "user should have specific permission or be a site admin";

/**
 * Who may see and change packages, decided by the access module: an owner the caller may not see
 * (`access.account`: private users and organizations, limited ones for anonymous callers,
 * restricted users and `public-only` tokens) hides all its packages (404); a package linked to a
 * repository the caller may not see (`access.repoById`) is hidden the same way. Otherwise reading
 * is allowed, and writing needs Forgejo's `reqPackageAccess(perm.AccessModeWrite)`: the owner
 * itself, or in an organization a team mode (or a team's packages unit) of write or more.
 */
export class PackageAccess {
  constructor(private readonly access: AccessService) {}

  /** Forgejo's PackageAssignment + determineAccessMode for `ownerName` (404 when hidden). */
  async owner(actor: Actor, ownerName: string): Promise<PackageOwnerAccess> {
    const owner = await this.access.account(actor, ownerName);
    const user = actor.user;
    let mode: AccessMode = "read";
    if (owner.type === "organization") {
      if (user) {
        const { permission, teams } = await this.access.org(actor, owner.name, "visible");
        mode = maxAccess(mode, orgPackageMode(permission));
        for (const team of teams) mode = maxAccess(mode, team.units["repo.packages"] ?? "none");
      }
    } else if (user && user.id === owner.id) {
      mode = "owner";
    }
    return { owner, actor, mode };
  }

  /** Whether the caller may write the owner's packages (site admins always may). */
  mayWrite(oa: PackageOwnerAccess): boolean {
    return mayWritePackages(oa.mode, oa.actor.user);
  }

  /** Throws 403 (the registry answers 401 with a challenge) when the caller may not write. */
  requireWrite(oa: PackageOwnerAccess): User {
    const user = oa.actor.user;
    if (!user || !this.mayWrite(oa)) throw new PermissionDeniedError(NO_PACKAGE_PERMISSION);
    return user;
  }

  /** Throws NotFound when the package is linked to a repository the caller may not see. */
  async requireVisible(actor: Actor, pkg: Package, what: () => NotFoundError): Promise<void> {
    if (pkg.repoId === null) return;
    try {
      await this.access.repoById(actor, pkg.repoId, "read");
    } catch (err) {
      if (err instanceof Error && (err as { kind?: string }).kind === "not_found") throw what();
      throw err;
    }
  }
}
