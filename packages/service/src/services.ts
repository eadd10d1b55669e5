import { AuthService } from "./auth/auth-service.js";
import type { ServiceContext } from "./context.js";
import { AccessTokenService } from "./users/access-token-service.js";
import { EmailService } from "./users/email-service.js";
import { UserService } from "./users/user-service.js";

/** Every service of a Kiln instance, built over one context. */
export interface Services {
  readonly ctx: ServiceContext;
  readonly auth: AuthService;
  readonly users: UserService;
  readonly emails: EmailService;
  readonly tokens: AccessTokenService;
}

/** Builds the services of an instance. */
export function createServices(ctx: ServiceContext): Services {
  return {
    ctx,
    auth: new AuthService(ctx),
    users: new UserService(ctx),
    emails: new EmailService(ctx),
    tokens: new AccessTokenService(ctx),
  };
}
