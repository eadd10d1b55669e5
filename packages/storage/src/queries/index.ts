export * as accessTokens from "./access-tokens.js";
export * as emails from "./emails.js";
export * as twoFactor from "./two-factor.js";
export * as users from "./users.js";
