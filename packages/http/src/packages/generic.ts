import { BadRequestError } from "@kiln/domain";
import { checkGenericNames, type PackageOwnerAccess } from "@kiln/service";
import type { AppContext } from "../env.js";
import { enforceQuota } from "../quota-enforcement.js";
import { isMultipart, readUpload } from "../upload.js";
import type { PackageRegistry, RegistryRequest } from "./package-registry.js";
import { fileResponse, requestedRange, unsatisfiable } from "./serve-file.js";

const TYPE = "generic";

/**
 * Forgejo's generic registry (routers/api/packages/generic): `PUT {name}/{version}/{filename}`
 * stores a file (201; 409 when the version has it already), `GET` downloads it, `DELETE` removes
 * it (the last file takes its version along), `DELETE {name}/{version}` removes the version.
 * Errors are plain text, as Forgejo answers them.
 */
export const genericRegistry: PackageRegistry = {
  type: TYPE,
  error: (status, message) =>
    new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } }),
  async handle({ c, method, owner, segments }: RegistryRequest) {
    const [name, version, filename, ...rest] = segments;
    if (name === undefined || version === undefined || rest.length > 0) return undefined;
    const packages = c.get("services").packages;
    if (filename === undefined) {
      if (method !== "DELETE") return undefined;
      await packages.deleteVersion(owner, TYPE, name, version);
      return new Response(null, { status: 204 });
    }
    if (method === "GET") return download(c, owner, name, version, filename);
    if (method === "PUT") return upload(c, owner, name, version, filename);
    if (method === "DELETE") {
      await packages.deleteFile(owner, TYPE, name, version, filename);
      return new Response(null, { status: 204 });
    }
    return undefined;
  },
};

async function download(
  c: AppContext,
  owner: PackageOwnerAccess,
  name: string,
  version: string,
  filename: string,
): Promise<Response> {
  let unsatisfiableSize: number | undefined;
  const opened = await c.get("services").packages.openFile(owner, TYPE, name, version, filename, (size) => {
    const range = requestedRange(c, size);
    if (range !== "unsatisfiable") return range;
    unsatisfiableSize = size;
    return undefined;
  });
  if (unsatisfiableSize !== undefined) {
    await opened.body.cancel();
    return unsatisfiable(unsatisfiableSize);
  }
  return fileResponse(opened.file, opened.body, opened.range);
}

/**
 * Forgejo's UploadPackage: write access (401), the names (400) and quota (413 with
 * `[quota] ENFORCE`) before a byte is read; a file the version has already is 409 at once; the
 * body streams into the blob store under `LIMIT_SIZE_GENERIC` (413) and is recorded with the
 * owner's usage in one transaction.
 */
async function upload(
  c: AppContext,
  owner: PackageOwnerAccess,
  name: string,
  version: string,
  filename: string,
): Promise<Response> {
  const { packages, packageUploads: uploads } = c.get("services");
  // Forgejo's reqPackageAccess(write) runs before the handler reads the names.
  packages.requireWrite(owner);
  checkGenericNames(name, version, filename);
  await uploads.requireWritable(owner, TYPE, name);
  await enforceQuota(c, owner.owner, "size:assets:packages:all");
  if (await uploads.hasFile(owner, TYPE, name, version, filename))
    return genericRegistry.error(409, "package file already exists");
  // Forgejo's UploadStream: the raw body, or the file of a multipart form.
  const maxBytes = uploads.sizeLimit(owner, TYPE);
  const upload = await readUpload(c, {
    field: "file",
    raw: true,
    maxBytes,
    limitName: `[packages] LIMIT_SIZE_GENERIC (${maxBytes} bytes)`,
  });
  if (!upload.file) throw new BadRequestError('the form has no "file" part');
  const length = isMultipart(c) ? undefined : c.req.header("Content-Length")?.trim();
  const options = {
    signal: upload.signal,
    ...(length && /^\d+$/.test(length) ? { declaredSize: Number(length) } : {}),
  };
  await uploads.storeBlob(owner, TYPE, upload.file.body, options, (blob) =>
    uploads.addFile(
      owner,
      { type: TYPE, name, version, filename, isLead: true, addToExistingVersion: true },
      blob,
    ),
  );
  return new Response(null, { status: 201 });
}
