import { AvatarService } from "../avatars/avatar-service.js";
import type { ServiceContext } from "../context.js";
import type { CronRegistry } from "../cron/cron-registry.js";
import { AccessTokenService } from "./access-token-service.js";
import { EmailService } from "./email-service.js";
import { RegistrationService } from "./registration-service.js";
import type { UserService } from "./user-service.js";

/** Accounts beyond the user rows themselves: e-mail addresses, tokens, sign-up and avatars. */
export interface AccountsArea {
  readonly emails: EmailService;
  readonly tokens: AccessTokenService;
  /** Self-registration on the sign-up page (`[service] DISABLE_REGISTRATION`). */
  readonly registrations: RegistrationService;
  /** Uploaded avatars of users, organizations and repositories, and generated identicons. */
  readonly avatars: AvatarService;
}

/** Builds the accounts area; uploaded avatars are blobs the cron sweep keeps in check. */
export function accountsArea(
  ctx: ServiceContext,
  deps: { users: UserService; cron: CronRegistry },
): AccountsArea {
  const avatars = new AvatarService(ctx);
  deps.cron.registerBlobKind(avatars.blobKind());
  return {
    emails: new EmailService(ctx),
    tokens: new AccessTokenService(ctx),
    registrations: new RegistrationService(ctx, deps.users),
    avatars,
  };
}
