import { BadRequestError, NotFoundError } from "@kiln/domain";
import { type FileContent, GitError, type GitRepository, getBranch, getContents, getTag } from "@kiln/git";
import { parseYaml } from "../lazy-yaml.js";

/** Where Forgejo looks for workflows, the first directory that exists winning (ListWorkflows). */
export const WORKFLOW_DIRS = [".forgejo/workflows", ".gitea/workflows", ".github/workflows"] as const;
/** The largest workflow file read (Forgejo reads any size; Kiln bounds it). */
export const MAX_WORKFLOW_SIZE = 1024 * 1024;
/** At most this many `workflow_dispatch` inputs a workflow may declare (Forgejo's default limit). */
const MAX_DISPATCH_INPUTS = 100;

/** At most this many jobs are recorded for one run. */
export const MAX_WORKFLOW_JOBS = 256;

/** A job of a workflow as a run records it. */
export interface WorkflowJob {
  readonly name: string;
  readonly needs: readonly string[];
  readonly runsOn: readonly string[];
  /** The job's key under `jobs:` (what Forgejo's dispatch answer lists). */
  readonly id: string;
}

/** A workflow file found at a ref, parsed as far as a dispatched run needs. */
export interface Workflow {
  /** `refs/heads/<branch>`, `refs/tags/<tag>` or the commit (Forgejo's ExpandRef). */
  readonly ref: string;
  readonly commitSha: string;
  /** `<dir>/<file>`: the run's title when the workflow has no `name`. */
  readonly fullId: string;
  readonly name: string;
  readonly jobs: readonly WorkflowJob[];
  /** The `workflow_dispatch` inputs: default and whether required. */
  readonly inputs: ReadonlyMap<
    string,
    {
      readonly default: string;
      readonly required: boolean;
      readonly label: string;
      /** `type: boolean`: a checkbox's `on` means `true` (Forgejo's dispatch form). */
      readonly boolean: boolean;
    }
  >;
}

async function absent<T>(op: () => Promise<T>): Promise<T | undefined> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof GitError && (err.kind === "not_found" || err.kind === "empty_repository"))
      return undefined;
    throw err;
  }
}

/** Forgejo's ExpandRef: a full ref as given, else a branch, a tag, or a commit id; 404 otherwise. */
async function expandRef(git: GitRepository, ref: string): Promise<{ full: string; rev: string }> {
  if (ref.startsWith("refs/heads/")) return { full: ref, rev: ref.slice("refs/heads/".length) };
  if (ref.startsWith("refs/tags/")) return { full: ref, rev: ref.slice("refs/tags/".length) };
  if (await absent(() => getBranch(git, ref))) return { full: `refs/heads/${ref}`, rev: ref };
  if (await absent(() => getTag(git, ref))) return { full: `refs/tags/${ref}`, rev: ref };
  if (/^[0-9a-f]{7,64}$/i.test(ref)) return { full: ref, rev: ref };
  throw new NotFoundError(`reference ${ref} does not exist`);
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Parses a workflow file's name, jobs and `workflow_dispatch` inputs; 400 when it is not a workflow. */
export function parseWorkflow(text: string): Pick<Workflow, "name" | "jobs" | "inputs"> {
  let doc: Record<string, unknown>;
  try {
    doc = record(parseYaml(text, { maxAliasCount: 100 }));
  } catch (err) {
    throw new BadRequestError(`invalid workflow: ${(err as Error).message}`);
  }
  const jobs = Object.entries(record(doc.jobs))
    .slice(0, MAX_WORKFLOW_JOBS)
    .map(([id, raw]) => {
      const job = record(raw);
      return {
        id,
        name: typeof job.name === "string" && job.name !== "" ? job.name : id,
        needs: strings(job.needs),
        runsOn: strings(job["runs-on"]),
      };
    });
  const on = doc.on ?? doc[true as unknown as string];
  const dispatch = record(record(on).workflow_dispatch);
  const inputs = new Map<string, { default: string; required: boolean; label: string; boolean: boolean }>();
  const declared = Object.entries(record(dispatch.inputs));
  // Forgejo's `[actions] LIMIT_DISPATCH_INPUTS` (100 by default).
  if (declared.length > MAX_DISPATCH_INPUTS)
    throw new BadRequestError(`workflow_dispatch has more than ${MAX_DISPATCH_INPUTS} inputs`);
  for (const [key, raw] of declared) {
    const input = record(raw);
    inputs.set(key, {
      default: input.default === undefined || input.default === null ? "" : String(input.default),
      required: input.required === true,
      label: typeof input.description === "string" && input.description !== "" ? input.description : key,
      boolean: input.type === "boolean",
    });
  }
  return { name: typeof doc.name === "string" ? doc.name : "", jobs, inputs };
}

/**
 * The workflow file `file` at `ref` (Forgejo's GetWorkflowFromCommit): 404 when the ref, the
 * workflow directory or the file (a `.yml` or `.yaml` in the first workflow directory that exists)
 * is missing.
 */
export async function readWorkflow(git: GitRepository, ref: string, file: string): Promise<Workflow> {
  const { full, rev } = await expandRef(git, ref);
  if (!/\.ya?ml$/.test(file) || file.includes("/")) throw new NotFoundError("workflow not found");
  for (const dir of WORKFLOW_DIRS) {
    const listing = await absent(() => getContents(git, dir, { ref: rev }));
    if (listing === undefined) continue;
    if (listing.kind !== "dir") break;
    const entry = listing.entries.find((e) => e.name === file && e.type === "file");
    if (!entry) break;
    if (entry.size > MAX_WORKFLOW_SIZE) throw new BadRequestError("workflow file is too large");
    const found = await getContents(git, entry.path, {
      ref: listing.commitSha,
      maxContentSize: MAX_WORKFLOW_SIZE,
    });
    if (found.kind !== "entry" || !("content" in found.entry)) throw new NotFoundError("workflow not found");
    const text = new TextDecoder().decode((found.entry as FileContent).content);
    return { ref: full, commitSha: listing.commitSha, fullId: `${dir}/${file}`, ...parseWorkflow(text) };
  }
  throw new NotFoundError("workflow not found");
}
