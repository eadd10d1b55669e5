import type { EmailWithOwner, Paged, PageRequest } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";

export type { EmailWithOwner } from "@kiln/domain";

/**
 * One page of every individual user's addresses (Forgejo's user_model.SearchEmails): with a
 * keyword, those whose address or owner's name contains it (case-insensitive), ordered by
 * address, primary first, then id.
 */
export async function searchEmails(
  db: Db,
  keyword: string,
  page: PageRequest,
): Promise<Paged<EmailWithOwner>> {
  let q = db
    .selectFrom("emailAddress")
    .innerJoin("users", "users.id", "emailAddress.userId")
    .where("users.type", "=", "individual");
  const kw = keyword.trim().toLowerCase();
  if (kw) {
    const pattern = `%${kw.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("emailAddress.lowerEmail", "like", pattern),
        eb("users.lowerName", "like", pattern),
        eb(sql`lower(users.full_name)`, "like", pattern),
      ]),
    );
  }
  return pageOf(
    q,
    (q) =>
      q
        .select([
          "emailAddress.email",
          "emailAddress.isActivated",
          "emailAddress.isPrimary",
          "emailAddress.userId",
          "users.name as userName",
        ])
        .orderBy("emailAddress.lowerEmail")
        .orderBy("emailAddress.isPrimary", "desc")
        .orderBy("emailAddress.id"),
    page,
  );
}
