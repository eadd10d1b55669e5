import { GitInvalidArgumentError } from "../errors/git-error.js";
import { isValidLfsOid, isValidLfsSize } from "./lfs-oid.js";

/** One link of an LFS batch response (`href`, headers, lifetime). */
export interface LfsAction {
  readonly href: string;
  readonly header?: Readonly<Record<string, string>>;
  readonly expires_in?: number;
}

/** One object of an LFS batch response: actions to take, or an error. */
export interface LfsBatchObject {
  readonly oid: string;
  readonly size: number;
  readonly authenticated?: boolean;
  readonly actions?: Readonly<Partial<Record<"upload" | "download" | "verify", LfsAction>>>;
  readonly error?: { readonly code: number; readonly message: string };
}

/** The LFS batch response body (`application/vnd.git-lfs+json`). */
export interface LfsBatchResponse {
  readonly transfer: "basic";
  readonly objects: readonly LfsBatchObject[];
  readonly hash_algo: "sha256";
}

/** A parsed and checked batch request; each oid and size is still checked per object by {@link lfsBatch}. */
export interface LfsBatchRequest {
  readonly operation: "upload" | "download";
  readonly objects: readonly { readonly oid: string; readonly size: number }[];
}

/** What the caller knows when answering a batch request. */
export interface LfsBatchContext {
  /** The stored size of an object, undefined when the store does not have it. */
  readonly storedSize: (oid: string) => Promise<number | undefined>;
  /** Whether this repository references an object (one it does not reference does not exist for it). */
  readonly visible: (oid: string) => boolean | Promise<boolean>;
  /**
   * For an upload of an object that is stored with this size but not referenced by this
   * repository: links it without upload when the caller may (it can read a repository that
   * references it) and resolves true; false asks the client to upload it, verified. Without it,
   * every such object must be uploaded.
   */
  readonly linkStored?: (oid: string, size: number) => Promise<boolean>;
  /** Base of the action links, e.g. `https://host/owner/repo.git/info/lfs`. */
  readonly hrefBase: string;
  /** Headers the client must send with each action (e.g. Authorization). */
  readonly actionHeaders?: Readonly<Record<string, string>>;
  /** Lifetime of the links in seconds. */
  readonly expiresIn?: number;
}

/** The batch response plus the objects of an upload that need no upload. */
export interface LfsBatchResult {
  readonly response: LfsBatchResponse;
  /** Objects of an upload that this repository references already, or that `linkStored` just linked. */
  readonly alreadyStored: readonly { readonly oid: string; readonly size: number }[];
}

/**
 * Checks the JSON of a batch request: `operation` is `upload` or `download`, `objects` is an
 * array of objects each with a string `oid` and a numeric `size`, `transfers` (if given)
 * includes `basic`, `hash_algo` (if given) is `sha256`. Throws invalid-argument (LFS: 422).
 * An oid or size of the right type but an invalid value is answered per object instead.
 */
export function parseLfsBatchRequest(body: unknown): LfsBatchRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new GitInvalidArgumentError("batch request must be an object");
  const { operation, objects, transfers, hash_algo } = body as Record<string, unknown>;
  if (operation !== "upload" && operation !== "download") {
    throw new GitInvalidArgumentError("operation must be upload or download");
  }
  if (!Array.isArray(objects)) throw new GitInvalidArgumentError("objects must be an array");
  if (transfers !== undefined && !(Array.isArray(transfers) && transfers.includes("basic"))) {
    throw new GitInvalidArgumentError("only the basic transfer adapter is supported");
  }
  if (hash_algo !== undefined && hash_algo !== "sha256")
    throw new GitInvalidArgumentError("unsupported hash_algo");
  return {
    operation,
    objects: objects.map((object: unknown, index) => {
      const { oid, size } = (typeof object === "object" && object !== null ? object : {}) as Record<
        string,
        unknown
      >;
      if (typeof oid !== "string" || typeof size !== "number") {
        throw new GitInvalidArgumentError(`objects[${index}] must have a string oid and a numeric size`);
      }
      return { oid, size };
    }),
  };
}

function action(context: LfsBatchContext, path: string): LfsAction {
  return {
    href: `${context.hrefBase.replace(/\/+$/, "")}/${path}`,
    ...(context.actionHeaders ? { header: context.actionHeaders } : {}),
    ...(context.expiresIn ? { expires_in: context.expiresIn } : {}),
  };
}

/**
 * Answers an LFS batch request as Forgejo's BatchHandler does: download links for stored objects
 * this repository references (404 "Object does not exist" otherwise, whether or not another
 * repository has it); for uploads, nothing to do for referenced objects or objects `linkStored`
 * links, upload and verify links for the rest; 422 per object for an invalid oid or size, or a
 * size that differs from the referenced object's (naming only the size the client sent).
 */
export async function lfsBatch(request: LfsBatchRequest, context: LfsBatchContext): Promise<LfsBatchResult> {
  const objects: LfsBatchObject[] = [];
  const alreadyStored: { oid: string; size: number }[] = [];
  for (const { oid, size } of request.objects) {
    if (!isValidLfsOid(oid) || !isValidLfsSize(size)) {
      objects.push({ oid, size, error: { code: 422, message: "Oid or size are invalid" } });
      continue;
    }
    const stored = await context.storedSize(oid);
    const visible = stored !== undefined && (await context.visible(oid));
    if (visible && stored !== size) {
      objects.push({ oid, size, error: { code: 422, message: `Object ${oid} is not ${size} bytes` } });
      continue;
    }
    if (request.operation === "download") {
      objects.push(
        visible
          ? { oid, size, authenticated: true, actions: { download: action(context, `objects/${oid}`) } }
          : { oid, size, error: { code: 404, message: "Object does not exist" } },
      );
      continue;
    }
    const present =
      visible ||
      (stored === size && context.linkStored !== undefined && (await context.linkStored(oid, size)));
    if (present) {
      alreadyStored.push({ oid, size });
      objects.push({ oid, size, authenticated: true });
      continue;
    }
    objects.push({
      oid,
      size,
      authenticated: true,
      actions: { upload: action(context, `objects/${oid}/${size}`), verify: action(context, "verify") },
    });
  }
  return { response: { transfer: "basic", objects, hash_algo: "sha256" }, alreadyStored };
}
