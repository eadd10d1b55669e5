import { BadRequestError } from "@kiln/domain";

/** Forgejo's generic registry's name rules (routers/api/packages/generic), each 400 with its message. */
const PACKAGE_NAME = /^[-_+.\w]+$/;
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& \w]+$/;
/** Kiln bounds what Forgejo's database column would (every input bounded). */
const MAX_LENGTH = 255;

/** Throws Forgejo's 400 for an invalid package name, version or file name of the generic registry. */
export function checkGenericNames(name: string, version: string, filename?: string): void {
  const single = name.length === 1 && !/^[\p{L}\p{N}]$/u.test(name);
  if (single || !PACKAGE_NAME.test(name) || name === ".." || name.length > MAX_LENGTH)
    throw new BadRequestError("invalid package name");
  if (filename !== undefined) {
    const trimmed = filename.trim() === filename && filename !== "." && filename !== "..";
    if (!trimmed || !FILE_NAME.test(filename) || filename.length > MAX_LENGTH)
      throw new BadRequestError("invalid filename");
  }
  if (version !== version.trim() || version === "" || version.length > MAX_LENGTH || /[/\0]/.test(version))
    throw new BadRequestError("invalid package version");
}
