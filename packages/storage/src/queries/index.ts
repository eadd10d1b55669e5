export * as accessTokens from "./access-tokens.js";
export * as emails from "./emails.js";
export * as twoFactor from "./two-factor.js";
export type { UserFilter, UserOrder } from "./users.js";
export * as users from "./users.js";
