/** markdown-it-task-lists ships no declarations: a markdown-it plugin taking `{ enabled, label }`. */
declare module "markdown-it-task-lists" {
  const plugin: (md: unknown, options?: { enabled?: boolean; label?: boolean }) => void;
  export default plugin;
}
