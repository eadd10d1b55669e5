/** What START told the runtime; set once when START arrives. */
export const startState = {
  cwd: "/",
  argv: [] as string[],
  debug: false,
  /** start_main_map: the bundle's source map, parsed only if an error needs it. */
  mainMap: "",
};
