/**
 * Whether `name` is a valid branch or tag name by git's `check-ref-format` rules: no control
 * characters, spaces or `~^:?*[\`, no `..` or `@{`, no segment starting with `.` or ending
 * with `.lock`, not starting with `-` or `/`, not ending with `/` or `.`, and not `@`.
 */
export function isValidRefName(name: string): boolean {
  return name.length <= 255 && followsRefFormat(name);
}

/**
 * Whether `name` may be given to a new branch, as `git check-ref-format --branch` and
 * `git branch` decide: `refs/heads/<name>` follows the format rules, and the name is neither
 * `HEAD` nor starts with `-`. The single `@` (git's shorthand for HEAD) is refused too.
 */
export function isValidBranchName(name: string): boolean {
  return isCreatableShortName(name);
}

/**
 * Whether `name` may be given to a new tag, as `git tag` decides (git 2.48's `check_tag_ref`):
 * `refs/tags/<name>` follows the format rules, and the name is neither `HEAD` nor starts with
 * `-`. The single `@` is refused as for branches.
 */
export function isValidTagName(name: string): boolean {
  return isCreatableShortName(name);
}

function isCreatableShortName(name: string): boolean {
  return name !== "HEAD" && !name.startsWith("-") && isValidRefName(name);
}

/**
 * Whether `ref` can name a ref that exists: `HEAD`, or a full name under `refs/` that git's
 * format rules allow (so no NUL or other control character, no `.` or `..` segment and no way
 * out of the refs directory). Anything else is not a ref, whatever the file system says.
 */
export function isReadableRef(ref: string): boolean {
  return ref === "HEAD" || (ref.startsWith("refs/") && followsRefFormat(ref));
}

function followsRefFormat(name: string): boolean {
  if (name.length === 0 || name === "@") return false;
  // A lone surrogate cannot be written as UTF-8, so it can name no file and no ref.
  if (!/^[^\uD800-\uDFFF]*$/u.test(name)) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rejects
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("-") || name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  // A component longer than the file system allows (255 bytes) cannot exist as a loose ref.
  return name
    .split("/")
    .every(
      (segment) =>
        !segment.startsWith(".") && !segment.endsWith(".lock") && Buffer.byteLength(segment) <= 255,
    );
}
