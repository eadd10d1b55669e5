/** One entry of a git tree. */
export interface TreeEntry {
  readonly name: string;
  readonly mode: string;
  readonly type: "blob" | "tree" | "commit";
  readonly sha: string;
}
