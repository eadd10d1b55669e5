import type { Paged, PageRequest } from "@kiln/domain";
import { adminEmails, type EmailWithOwner } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/** `GET /admin/emails` and `/admin/emails/search` (Forgejo's routers/api/v1/admin/email.go). */
export class AdminEmailService {
  constructor(private readonly ctx: ServiceContext) {}

  /** One page of every user's addresses, or of those whose address or owner matches `keyword`. */
  search(keyword: string, page: PageRequest): Promise<Paged<EmailWithOwner>> {
    return adminEmails.searchEmails(this.ctx.db, keyword, page);
  }
}
