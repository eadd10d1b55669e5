import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { HostError } from "./errors.js";

/** A permission flag's value: absent, given bare (everything), or given a list (`--allow-net=a,b`). */
export type Grant = undefined | "all" | readonly string[];

/** The permission flags of one run, as given on the command line. */
export interface PermissionFlags {
  /** `--allow-read[=paths]`: local modules outside the entry script's folder. */
  readonly allowRead: Grant;
  /** `--allow-net[=hosts]`: `fetch`, and remote modules too (as in Deno 2). */
  readonly allowNet: Grant;
  /** `--allow-import[=hosts]`: remote modules only. */
  readonly allowImport: Grant;
}

/** No permission at all: what a run gets without flags. */
export const NO_PERMISSIONS: PermissionFlags = {
  allowRead: undefined,
  allowNet: undefined,
  allowImport: undefined,
};

/** `host` or `host:port` (IPv6 in brackets), optionally `*.` before a domain, as Deno 2 writes them. */
interface HostRule {
  readonly host: string;
  readonly port: string | undefined;
}

function parseHostRule(text: string): HostRule {
  const match = /^(\[[0-9a-f:.]+\]|(?:\*\.)?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*)(?::(\d{1,5}))?$/.exec(
    text.trim().toLowerCase(),
  );
  if (!match) throw new TypeError(`not a host or host:port: "${text}"`);
  return { host: match[1]!, port: match[2] };
}

/** The `host:port` a permission error names (the port is the scheme's default when the URL has none). */
function hostPort(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
  return port ? `${url.hostname}:${port}` : url.hostname;
}

function hostMatches(rule: HostRule, url: URL): boolean {
  const host = url.hostname.toLowerCase();
  const hostOk = rule.host.startsWith("*.")
    ? host.endsWith(rule.host.slice(1)) && host.length > rule.host.length - 1
    : host === rule.host;
  if (!hostOk) return false;
  if (rule.port === undefined) return true;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return port === rule.port;
}

/** Whether `path` is `root` or inside it (both absolute, normalised). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realPathOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = resolve(path, "..");
    return parent === path ? path : resolve(realPathOf(parent), relative(parent, path));
  }
}

/**
 * What a script may reach, decided in the host (the script only asks): local modules from the
 * entry script's folder tree unless `--allow-read` widens it; remote modules with `--allow-import`
 * or `--allow-net`; `fetch` with `--allow-net`. Host lists restrict a flag to those hosts. A denial
 * is a `PermissionDenied` error naming the flag, raised before anything touches the file system or
 * the network.
 */
export class Permissions {
  readonly #readRoots: readonly string[] | "all";
  readonly #net: readonly HostRule[] | "all" | undefined;
  readonly #import: readonly HostRule[] | "all" | undefined;

  /**
   * `entryDir`: the folder of the script named on the command line (none for a remote script);
   * `cwd` resolves relative paths.
   */
  constructor(flags: PermissionFlags, entryDir: string | undefined, cwd: string) {
    const roots =
      flags.allowRead === "all"
        ? "all"
        : [
            ...(entryDir === undefined ? [] : [entryDir]),
            ...(flags.allowRead ?? []).map((path) => resolve(cwd, path)),
          ];
    this.#readRoots =
      roots === "all" ? "all" : [...new Set(roots.flatMap((root) => [resolve(root), realPathOf(root)]))];
    const hosts = (grant: Grant) =>
      grant === "all" || grant === undefined ? grant : grant.map(parseHostRule);
    this.#net = hosts(flags.allowNet);
    this.#import = hosts(flags.allowImport);
  }

  /**
   * Allows reading a local module at `path` (absolute): the path as written and, so that a
   * symbolic link cannot lead out, its real path must both lie inside an allowed folder.
   */
  checkRead(path: string): void {
    if (this.#readRoots === "all") return;
    const roots = this.#readRoots;
    const inside = (candidate: string) => roots.some((root) => isInside(candidate, root));
    if (!inside(resolve(path)) || !inside(realPathOf(path))) {
      throw new HostError(
        "PermissionDenied",
        `Requires read access to "${path}", run again with the --allow-read flag`,
      );
    }
  }

  /** Allows loading a remote module from `url`: `--allow-import` or `--allow-net` for its host. */
  checkImport(url: URL): void {
    if (this.#allows(this.#import, url) || this.#allows(this.#net, url)) return;
    throw new HostError(
      "PermissionDenied",
      `Requires import access to "${hostPort(url)}", run again with the --allow-import flag`,
    );
  }

  /** Allows `fetch` of `url`: `--allow-net` for its host. */
  checkNet(url: URL): void {
    if (this.#allows(this.#net, url)) return;
    throw new HostError(
      "PermissionDenied",
      `Requires net access to "${hostPort(url)}", run again with the --allow-net flag`,
    );
  }

  #allows(rules: readonly HostRule[] | "all" | undefined, url: URL): boolean {
    if (rules === undefined) return false;
    if (rules === "all") return true;
    return rules.some((rule) => hostMatches(rule, url));
  }
}

/** Parses a host list flag's value (`a.com,b.com:8080`); throws TypeError on a bad entry. */
export function parseHostList(value: string): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) parseHostRule(entry);
  return entries;
}
