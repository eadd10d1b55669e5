import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HostError } from "../errors.js";

/** Where a module specifier leads: a local file or a remote http(s) URL. */
export type ResolvedModule =
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "remote"; readonly url: URL };

const isRemote = (text: string) => /^https?:\/\//i.test(text);
const isRelative = (text: string) =>
  text.startsWith("./") || text.startsWith("../") || text === "." || text === "..";

/**
 * Resolves a specifier against the module that imports it (decision 16, docs/decisions.md): relative and
 * absolute paths, `file:` and `http(s):` URLs. `containingFile` is a module name (a path or URL);
 * a path ending in "/" is a directory (used for the main module). Remote modules may import only
 * other remote modules. Anything else (bare names, `node:` …) is refused.
 */
export function resolveSpecifier(specifier: string, containingFile: string): ResolvedModule {
  if (isRemote(specifier)) return { kind: "remote", url: new URL(specifier) };
  if (isRemote(containingFile)) {
    if (isRelative(specifier) || specifier.startsWith("/")) {
      return { kind: "remote", url: new URL(specifier, containingFile) };
    }
    if (specifier.startsWith("file:")) {
      throw new HostError(
        "PermissionDenied",
        `remote module "${containingFile}" may not import local "${specifier}"`,
      );
    }
  } else {
    const base = containingFile.endsWith("/") ? containingFile : dirname(containingFile);
    if (specifier.startsWith("file:")) return { kind: "file", path: fileURLToPath(specifier) };
    if (isAbsolute(specifier)) return { kind: "file", path: resolve(specifier) };
    if (isRelative(specifier)) return { kind: "file", path: resolve(base, specifier) };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(specifier)?.[1];
  if (scheme) {
    throw new HostError(
      "TypeError",
      `unsupported scheme "${scheme}:" in import "${specifier}" from "${containingFile}"`,
    );
  }
  throw new HostError(
    "TypeError",
    `relative import path "${specifier}" not prefixed with / or ./ or ../ (imported from "${containingFile}")`,
  );
}

/** The module name the runtime sees for a resolved module: the path for a file, the URL for a remote one. */
export function moduleNameOf(module: ResolvedModule): string {
  return module.kind === "file" ? module.path : module.url.href;
}
