import type { User } from "@kiln/domain";
import type { UserService } from "../users/user-service.js";

/** The Kiln accounts of git identities, by e-mail address (Forgejo's GetUserByEmail per commit). */
export type CommitUsers = ReadonlyMap<string, User>;

/** Looks up each distinct address once; addresses no account has are simply absent. */
export async function commitUsers(
  users: Pick<UserService, "findByEmail">,
  emails: Iterable<string>,
): Promise<CommitUsers> {
  const found = new Map<string, User>();
  for (const email of new Set(emails)) {
    if (!email) continue;
    const user = await users.findByEmail(email);
    if (user) found.set(email, user);
  }
  return found;
}
