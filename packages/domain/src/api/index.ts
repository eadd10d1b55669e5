export * from "./access-token.js";
export * from "./email.js";
export * from "./error.js";
export * from "./organization.js";
export * from "./quota.js";
export * from "./repository.js";
export * from "./settings.js";
export * from "./user.js";
