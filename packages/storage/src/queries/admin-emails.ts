import type { Paged, PageRequest } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { paged } from "./paging.js";

/** An e-mail address with its owner's name, as `GET /admin/emails` shows it. */
export interface EmailWithOwner {
  readonly email: string;
  readonly isActivated: boolean;
  readonly isPrimary: boolean;
  readonly userId: number;
  readonly userName: string;
}

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
  return paged(
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
    q.select((eb) => eb.fn.countAll<number>().as("count")),
    page,
  );
}
