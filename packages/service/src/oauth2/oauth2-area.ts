import type { ServiceContext } from "../context.js";
import { OAuth2ApplicationService } from "./application-service.js";
import { OAuth2Authorizer } from "./authorize.js";
import { OAuth2TokenService } from "./token-service.js";

/** OAuth2: users' applications, the authorization endpoint and consent, the token endpoint. */
export interface OAuth2Area {
  readonly oauth2Applications: OAuth2ApplicationService;
  readonly oauth2Authorizer: OAuth2Authorizer;
  readonly oauth2Tokens: OAuth2TokenService;
}

/** Builds the OAuth2 area. */
export function oauth2Area(ctx: ServiceContext): OAuth2Area {
  return {
    oauth2Applications: new OAuth2ApplicationService(ctx),
    oauth2Authorizer: new OAuth2Authorizer(ctx),
    oauth2Tokens: new OAuth2TokenService(ctx),
  };
}
