export * as api from "./api/index.js";
export * from "./api/primitives.js";
export * from "./errors.js";
export * from "./model/access-token.js";
export * from "./model/access-token-scope.js";
export * from "./model/email.js";
export * from "./model/paging.js";
export * from "./model/user.js";
export * from "./settings.js";
