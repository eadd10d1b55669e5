import { NotFoundError, type Repository } from "@kiln/domain";
import { openRawFile } from "@kiln/git";
import { parseFromFilesSync } from "editorconfig";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";

/** A root `.editorconfig` larger than this is treated as absent (editorconfig files are a few lines). */
export const MAX_EDITORCONFIG_SIZE = 256 * 1024;

/** The editorconfig properties of one file: Forgejo's four keys, then the other standard ones. */
export interface EditorconfigDefinition {
  readonly charset?: string;
  readonly indent_style?: string;
  readonly indent_size?: string;
  readonly end_of_line?: string;
  readonly tab_width?: number;
  readonly trim_trailing_whitespace?: boolean;
  readonly insert_final_newline?: boolean;
}

const noConfig = () => new NotFoundError("no .editorconfig in this ref");

/** Section globs with more special characters than this, or longer, never match (see {@link defuse}). */
const MAX_GLOB_SPECIALS = 8;
const MAX_GLOB_LENGTH = 256;

/**
 * The `editorconfig` package matches sections with regular expressions (minimatch), which a crafted
 * glob (`[*a*a*a*a*a*a*a*a*a*b]`, nested braces) can make exponentially slow on the server's event
 * loop; Forgejo's Go regular expressions run in linear time. Headers beyond a small budget of `*`,
 * `?`, `[`, `{` and `,`, longer than 256 characters, holding a numeric range (`{1..9}`), or past
 * the 200th section, are replaced by `[/]`, which matches no file.
 */
function defuse(text: string): string {
  let sections = 0;
  return text
    .split("\n")
    .map((line) => {
      const header = line.trim();
      if (!header.startsWith("[") || !header.endsWith("]")) return line;
      sections++;
      const glob = header.slice(1, -1);
      let specials = 0;
      for (const ch of glob)
        if (ch === "*" || ch === "?" || ch === "[" || ch === "{" || ch === ",") specials++;
      // `{1..100000}` expands to that many alternatives: numeric ranges are never allowed, and the
      // sections themselves are bounded, so building every section's matcher stays cheap.
      const defused =
        specials > MAX_GLOB_SPECIALS ||
        glob.length > MAX_GLOB_LENGTH ||
        /\{[^}]*\.\.[^}]*\}/.test(glob) ||
        sections > MAX_SECTIONS;
      return defused ? "[/]" : line;
    })
    .join("\n");
}

/** Sections beyond this many never match (a real `.editorconfig` has a handful). */
const MAX_SECTIONS = 200;

/**
 * `GET /repos/{owner}/{repo}/editorconfig/{filepath}` (Forgejo's GetEditorconfig): the root
 * `.editorconfig` of a ref, parsed and matched by the `editorconfig` package (the reference
 * JavaScript implementation), for one path. 404 when the ref or its `.editorconfig` does not exist;
 * a file no section matches gets `{}`, as Forgejo answers.
 */
export class EditorconfigService {
  constructor(private readonly repos: RepoService) {}

  async definition(repo: Repository, filepath: string, ref?: string): Promise<EditorconfigDefinition> {
    if (repo.isEmpty) throw noConfig();
    const git = await this.repos.git(repo);
    const file = await withGitErrors(() => openRawFile(git, ".editorconfig", ref ? { ref } : {}), {
      not_found: noConfig,
      empty_repository: noConfig,
      invalid_argument: noConfig,
    });
    if (file.size > MAX_EDITORCONFIG_SIZE) throw noConfig();
    if (filepath.length > 4096) throw noConfig();
    const raw = Buffer.from(await new Response(await file.open()).arrayBuffer()).toString("utf8");
    const contents = Buffer.from(defuse(raw));
    const target = `/${filepath.replace(/^\/+/, "")}`;
    const props = parseFromFilesSync(target, [{ name: "/.editorconfig", contents }], { root: "/" });
    const text = (value: unknown) =>
      typeof value === "string" || typeof value === "number" ? String(value) : undefined;
    const out: Record<string, unknown> = {};
    for (const key of ["charset", "indent_style", "indent_size", "end_of_line"] as const) {
      const value = text(props[key]);
      if (value !== undefined && value !== "") out[key] = value;
    }
    if (typeof props.tab_width === "number") out.tab_width = props.tab_width;
    for (const key of ["trim_trailing_whitespace", "insert_final_newline"] as const) {
      if (typeof props[key] === "boolean") out[key] = props[key];
    }
    return out as EditorconfigDefinition;
  }
}
