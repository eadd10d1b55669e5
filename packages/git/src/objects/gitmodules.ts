/** One submodule declared in `.gitmodules`. */
export interface SubmoduleDecl {
  readonly name: string;
  readonly path: string;
  readonly url: string;
}

/** Parses the `[submodule "name"]` sections of a `.gitmodules` file, keeping those with a path and url. */
export function parseGitmodules(text: string): SubmoduleDecl[] {
  const modules: SubmoduleDecl[] = [];
  let current: { name: string; path?: string; url?: string } | undefined;
  const flush = () => {
    if (current?.path && current.url)
      modules.push({ name: current.name, path: current.path, url: current.url });
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const section = /^\[submodule\s+"(.*)"\]$/.exec(line);
    if (section) {
      flush();
      current = { name: section[1] ?? "" };
      continue;
    }
    if (line.startsWith("[")) {
      flush();
      current = undefined;
      continue;
    }
    const pair = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (current && pair) {
      const key = pair[1]?.toLowerCase();
      if (key === "path") current.path = pair[2];
      if (key === "url") current.url = pair[2];
    }
  }
  flush();
  return modules;
}
