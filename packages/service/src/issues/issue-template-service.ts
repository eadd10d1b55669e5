import type { Repository } from "@kiln/domain";
import { type FileContent, GitError, type GitRepository, getContents } from "@kiln/git";
import type { RepoService } from "../repos/repo-service.js";
import {
  CONFIG_CANDIDATES,
  defaultIssueConfig,
  type IssueConfig,
  type IssueTemplate,
  MAX_TEMPLATE_BYTES,
  MAX_TEMPLATE_SIZE,
  MAX_TEMPLATES,
  parseIssueConfig,
  parseTemplate,
  TEMPLATE_DIRS,
  templateType,
} from "./issue-templates.js";

/** A config read from the default branch, or the default with the reason it was not usable. */
export interface IssueConfigResult {
  readonly config: IssueConfig;
  readonly error?: string;
}

/**
 * Issue templates and their config on a repository's default branch (Forgejo's
 * GetTemplatesFromDefaultBranch and GetTemplateConfigFromDefaultBranch). Invalid templates are
 * left out; an invalid config gives the default, with the reason for `issue_config/validate`.
 */
export class IssueTemplateService {
  constructor(private readonly repos: RepoService) {}

  /**
   * The valid templates among the first {@link MAX_TEMPLATES} template files (at most
   * {@link MAX_TEMPLATE_BYTES} together) of the template directories, in Forgejo's order.
   */
  async templates(repo: Repository): Promise<IssueTemplate[]> {
    if (repo.isEmpty) return [];
    const git = await this.repos.git(repo);
    const found: IssueTemplate[] = [];
    let files = 0;
    let bytes = 0;
    for (const dir of TEMPLATE_DIRS) {
      const listing = await absentAsUndefined(() => getContents(git, dir, { ref: repo.defaultBranch }));
      if (listing?.kind !== "dir") continue;
      for (const entry of listing.entries) {
        if (entry.type !== "file" || !templateType(entry.name) || entry.size > MAX_TEMPLATE_SIZE) continue;
        if (files >= MAX_TEMPLATES || bytes + entry.size > MAX_TEMPLATE_BYTES) return found;
        files += 1;
        bytes += entry.size;
        const text = await readText(git, entry.path, repo.defaultBranch);
        if (text === undefined) continue;
        try {
          found.push(parseTemplate(entry.path, text));
        } catch {
          // An invalid template is left out, as Forgejo does.
        }
      }
    }
    return found;
  }

  async config(repo: Repository): Promise<IssueConfigResult> {
    if (repo.isEmpty) return { config: defaultIssueConfig() };
    const git = await this.repos.git(repo);
    for (const candidate of CONFIG_CANDIDATES) {
      for (const path of [`${candidate}.yaml`, `${candidate}.yml`]) {
        const found = await absentAsUndefined(() =>
          getContents(git, path, { ref: repo.defaultBranch, maxContentSize: 0 }),
        );
        if (found?.kind !== "entry" || found.entry.type !== "file") continue;
        if (found.entry.size > MAX_TEMPLATE_SIZE) {
          return {
            config: defaultIssueConfig(),
            error: `too large: ${found.entry.size} > MaxDisplayFileSize`,
          };
        }
        const text = (await readText(git, path, repo.defaultBranch)) ?? "";
        try {
          return { config: parseIssueConfig(text) };
        } catch (err) {
          return { config: defaultIssueConfig(), error: (err as Error).message };
        }
      }
    }
    return { config: defaultIssueConfig() };
  }
}

async function readText(git: GitRepository, path: string, ref: string): Promise<string | undefined> {
  const found = await absentAsUndefined(() =>
    getContents(git, path, { ref, maxContentSize: MAX_TEMPLATE_SIZE }),
  );
  if (found?.kind !== "entry" || !("content" in found.entry)) return undefined;
  return new TextDecoder().decode((found.entry as FileContent).content);
}

/** The result, or undefined when the path (or branch) does not exist. */
async function absentAsUndefined<T>(op: () => Promise<T>): Promise<T | undefined> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof GitError && (err.kind === "not_found" || err.kind === "empty_repository"))
      return undefined;
    throw err;
  }
}
