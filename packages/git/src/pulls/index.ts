export * from "./compare.js";
export * from "./cross-repo.js";
export * from "./diff.js";
export * from "./joined-objects.js";
export * from "./merge.js";
export * from "./merge-tree.js";
export * from "./messages.js";
export * from "./refs.js";
export { moveRef, type NewCommit, treeOf, writeCommit } from "./write.js";
