import { PermissionDeniedError, type User } from "@kiln/domain";
import { users as userRows } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { UserService } from "./user-service.js";

/** What the sign-up page takes (Forgejo's RegisterForm, less the retyped password the page compares). */
export interface RegistrationInput {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/**
 * Self-registration (Forgejo's SignUpPost): refused under `[service] DISABLE_REGISTRATION`, else an
 * individual account made with the admin API's rules (name, e-mail and password checks). The first
 * account of an instance becomes a site administrator, as in Forgejo.
 */
export class RegistrationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UserService,
  ) {}

  /** Whether the sign-up page is open. */
  get open(): boolean {
    return !this.ctx.settings.service.disableRegistration;
  }

  /** Creates the account; the caller signs it in. */
  async register(input: RegistrationInput): Promise<User> {
    if (!this.open) throw new PermissionDeniedError("registration is disabled");
    const user = await this.users.create({
      username: input.username,
      email: input.email,
      password: input.password,
    });
    if ((await userRows.countIndividuals(this.ctx.db)) === 1) {
      return this.users.adminEdit(user, { admin: true });
    }
    return user;
  }
}
