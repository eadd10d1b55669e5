export * from "./wiki-path.js";
export * from "./wiki-service.js";
