import {
  BadRequestError,
  type EmailAddress,
  InvalidArgumentError,
  isValidEmail,
  NotFoundError,
  type User,
} from "@kiln/domain";
import { emails, isUniqueViolation } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/** A user's e-mail addresses (`/user/emails`). */
export class EmailService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Every address of the user, primary first. */
  async list(user: User): Promise<EmailAddress[]> {
    return emails.listEmails(this.ctx.db, user.id);
  }

  /** Adds addresses (all or none); returns the ones added. 422 for an invalid or taken address. */
  async add(user: User, addresses: readonly string[]): Promise<EmailAddress[]> {
    if (addresses.length === 0) throw new InvalidArgumentError("Email list empty");
    for (const email of addresses) {
      if (!isValidEmail(email)) throw new InvalidArgumentError(`Email address is not valid: ${email}`);
    }
    return this.ctx.db.transaction().execute(async (trx) => {
      const added: EmailAddress[] = [];
      for (const email of new Set(addresses)) {
        if (await emails.findEmail(trx, email)) throw emailTaken(email);
        try {
          added.push(await emails.insertEmail(trx, { userId: user.id, email, isPrimary: false }));
        } catch (err) {
          if (isUniqueViolation(err)) throw emailTaken(email);
          throw err;
        }
      }
      return added;
    });
  }

  /** Removes addresses (all or none): 404 for one the user does not have, 400 for the primary. */
  async delete(user: User, addresses: readonly string[]): Promise<void> {
    if (addresses.length === 0) return;
    await this.ctx.db.transaction().execute(async (trx) => {
      const mine = await emails.listEmails(trx, user.id);
      for (const email of addresses) {
        const found = mine.find((e) => e.email.toLowerCase() === email.toLowerCase());
        if (!found) throw new NotFoundError(`email address does not exist [email: ${email}]`);
        if (found.isPrimary)
          throw new BadRequestError(`the primary email address cannot be deleted [email: ${email}]`);
      }
      await emails.deleteEmails(trx, user.id, addresses);
    });
  }
}

function emailTaken(email: string): InvalidArgumentError {
  return new InvalidArgumentError(`Email address has been used: ${email}`);
}
