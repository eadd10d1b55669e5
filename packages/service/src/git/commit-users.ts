import type { User } from "@kiln/domain";
import type { UserService } from "../users/user-service.js";

/** The Kiln accounts of git identities, by e-mail address (Forgejo's GetUserByEmail per commit). */
export type CommitUsers = ReadonlyMap<string, User>;

/** Looks up all the addresses in one query; addresses no account has are simply absent. */
export async function commitUsers(
  users: Pick<UserService, "findByEmails">,
  emails: Iterable<string>,
): Promise<CommitUsers> {
  const distinct = [...new Set(emails)].filter((email) => email !== "");
  const byLowerCase = await users.findByEmails(distinct);
  const found = new Map<string, User>();
  for (const email of distinct) {
    const user = byLowerCase.get(email.toLowerCase());
    if (user) found.set(email, user);
  }
  return found;
}
