import type { ServiceContext } from "../context.js";
import { AuthService } from "./auth-service.js";
import { TwoFactorService } from "./two-factor-service.js";
import { WebSessionService } from "./web-session-service.js";

/** Authentication: requests' credentials, the web pages' sign-in sessions and TOTP enrolment. */
export interface AuthArea {
  readonly auth: AuthService;
  /** The web pages' sign-in sessions and TOTP enrolment. */
  readonly webSessions: WebSessionService;
  readonly twoFactor: TwoFactorService;
}

/** Builds the authentication area. */
export function authArea(ctx: ServiceContext): AuthArea {
  return {
    auth: new AuthService(ctx),
    webSessions: new WebSessionService(ctx),
    twoFactor: new TwoFactorService(ctx),
  };
}
