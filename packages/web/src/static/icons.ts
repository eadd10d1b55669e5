import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The Octicons the pages use, and only those: each page refers to them in one sprite (a static
 * asset, cached for good), so a list of fifty repositories repeats a short `<use>` instead of the
 * same paths fifty times.
 */
export const ICONS = [
  "alert",
  "bell",
  "book",
  "check",
  "chevron-left",
  "chevron-right",
  "clock",
  "code",
  "comment",
  "copy",
  "download",
  "eye",
  "file",
  "file-diff",
  "git-branch",
  "git-commit",
  "file-directory-fill",
  "file-submodule",
  "file-symlink-file",
  "git-pull-request",
  "history",
  "issue-opened",
  "link",
  "location",
  "lock",
  "mirror",
  "organization",
  "people",
  "person",
  "repo",
  "repo-forked",
  "search",
  "shield-lock",
  "sign-in",
  "sign-out",
  "star",
  "tag",
  // The issue pages.
  "arrow-left",
  "cross-reference",
  "git-merge",
  "git-pull-request-closed",
  "issue-closed",
  "milestone",
  "paperclip",
  "pencil",
  "unlock",
  "x",
  "unverified",
  "verified",
] as const;

/** The name of an icon the pages may use. */
export type IconName = (typeof ICONS)[number];

/** The sprite: one `<symbol id="{name}">` per icon, read from `@primer/octicons`' 16 px SVGs. */
export function iconSprite(): string {
  const require = createRequire(import.meta.url);
  const symbols = ICONS.map((name) => {
    const svg = readFileSync(require.resolve(`@primer/octicons/build/svg/${name}-16.svg`), "utf8");
    const viewBox = /viewBox="([^"]+)"/.exec(svg)?.[1] ?? "0 0 16 16";
    const body = svg.replace(/^<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");
    return `<symbol id="${name}" viewBox="${viewBox}">${body}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join("")}</svg>\n`;
}
