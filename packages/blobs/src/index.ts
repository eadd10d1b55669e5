export * from "./blob-store.js";
export * from "./fs-blob-store.js";
