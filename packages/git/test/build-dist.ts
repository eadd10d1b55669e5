import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds dist/ when any source file is newer than its compiled entry point. */
export default function setup(): void {
  let built = 0;
  try {
    built = statSync(join(root, "dist/index.js")).mtimeMs;
  } catch {}
  if (built < newest(join(root, "src"))) {
    execFileSync(
      process.execPath,
      [join(root, "../../node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
        stdio: "inherit",
      },
    );
  }
}
