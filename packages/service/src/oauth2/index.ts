export {
  type ApplicationInput,
  type ApplicationWithSecret,
  OAuth2ApplicationService,
} from "./application-service.js";
export { type AuthorizeOutcome, type AuthorizeRequest, OAuth2Authorizer } from "./authorize.js";
export type { Introspection } from "./introspection.js";
export { type AuthorizeError, OAuth2Error } from "./oauth2-error.js";
export { grantTokenScopes, OIDC_SCOPES, scopeContains } from "./oauth2-scope.js";
export { type SigningKey, signingKeyOf } from "./signing-key.js";
export {
  type AccessTokenResponse,
  OAuth2TokenService,
  type TokenRequest,
  type UserUrls,
} from "./token-service.js";
