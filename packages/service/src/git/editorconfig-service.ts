import { NotFoundError, type Repository } from "@kiln/domain";
import { openRawFile } from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { type EditorconfigFile, editorconfigProps, parseEditorconfig } from "./editorconfig.js";

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

/** Parsed `.editorconfig` files kept by blob id (compiled once, not per request). */
const MAX_CACHED = 64;
const parsed = new Map<string, EditorconfigFile>();

function parsedOnce(sha: string, text: () => Promise<string>): Promise<EditorconfigFile> {
  const known = parsed.get(sha);
  if (known) return Promise.resolve(known);
  return text().then((content) => {
    const file = parseEditorconfig(content);
    parsed.set(sha, file);
    if (parsed.size > MAX_CACHED) {
      const oldest = parsed.keys().next().value;
      if (oldest !== undefined) parsed.delete(oldest);
    }
    return file;
  });
}

/**
 * `GET /repos/{owner}/{repo}/editorconfig/{filepath}` (Forgejo's GetEditorconfig): the root
 * `.editorconfig` of a ref, parsed and matched by Kiln's EditorConfig reader (editorconfig.ts,
 * linear glob matching), for one path. 404 when the ref or its `.editorconfig` does not exist;
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
    const config = await parsedOnce(file.sha, async () =>
      Buffer.from(await new Response(await file.open()).arrayBuffer()).toString("utf8"),
    );
    const props = Object.fromEntries(editorconfigProps(config, filepath));
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
