export * from "./wiki-path.js";
export * from "./wiki-service.js";
export * from "./wiki-size-recount.js";
