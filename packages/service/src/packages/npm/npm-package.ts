import { BadRequestError } from "@kiln/domain";
import type { FileHashes } from "../hashed-body.js";
import { parseSemver } from "./semver.js";

/** Forgejo's npm name rule (modules/packages/npm): lower case, optionally scoped, at most 214 characters. */
const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;

/** What Forgejo keeps of a version's package.json (its npm `Metadata`). */
export interface NpmMetadata {
  readonly scope?: string;
  readonly name?: string;
  readonly description?: string;
  readonly author?: string;
  readonly license?: string;
  readonly project_url?: string;
  readonly keywords?: string[];
  readonly dependencies?: Record<string, string>;
  readonly bundleDependencies?: string[];
  readonly development_dependencies?: Record<string, string>;
  readonly peer_dependencies?: Record<string, string>;
  readonly optional_dependencies?: Record<string, string>;
  readonly bin?: Record<string, string>;
  readonly readme?: string;
  readonly repository?: { type: string; url: string };
}

/** A publish, read from its document: the version to create, its file and tags. */
export interface NpmPublish {
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  readonly distTags: readonly string[];
  readonly metadata: NpmMetadata;
}

/** Whether a name is a valid npm package name. */
export function isNpmName(name: string): boolean {
  return name.trim() === name && name.length > 0 && name.length <= 214 && NAME.test(name);
}

/**
 * Forgejo's ParsePackage over the publish document (its tarball already stored and hashed): the
 * first version's name (400 `package name is invalid`) and semantic version (400 `package version
 * is invalid`), its dist-tags, and the tarball's integrity checked against `dist.integrity`
 * (400 `failed to validate integrity`).
 */
export function readNpmPublish(document: unknown, tarball: { size: number; hashes: FileHashes }): NpmPublish {
  const doc = record(document);
  const versions = record(doc.versions);
  const first = Object.values(versions)[0];
  if (first === undefined) throw new BadRequestError("package is invalid");
  const meta = record(first);
  const name = str(meta.name);
  if (!isNpmName(name)) throw new BadRequestError("package name is invalid");
  const version = parseSemver(str(meta.version));
  if (version === undefined) throw new BadRequestError("package version is invalid");
  if (tarball.size === 0) throw new BadRequestError("package attachment is invalid");
  checkIntegrity(str(record(meta.dist).integrity), tarball.hashes);
  const slash = name.indexOf("/");
  const scope = slash >= 0 ? name.slice(0, slash) : "";
  const bare = slash >= 0 ? name.slice(slash + 1) : name;
  const homepage = str(meta.homepage);
  const repository = record(meta.repository);
  const metadata: NpmMetadata = {
    ...(scope ? { scope } : {}),
    name: bare,
    ...opt("description", str(meta.description)),
    ...opt("author", author(meta.author)),
    ...opt("license", str(meta.license)),
    ...opt("project_url", /^https?:\/\//.test(homepage) ? homepage : ""),
    ...optList("keywords", meta.keywords),
    ...optMap("dependencies", meta.dependencies),
    ...optList("bundleDependencies", meta.bundleDependencies),
    ...optMap("development_dependencies", meta.devDependencies),
    ...optMap("peer_dependencies", meta.peerDependencies),
    ...optMap("optional_dependencies", meta.optionalDependencies),
    ...optMap("bin", meta.bin),
    ...opt("readme", str(meta.readme)),
    ...(str(repository.url) ? { repository: { type: str(repository.type), url: str(repository.url) } } : {}),
  };
  return {
    name,
    version,
    filename: `${bare}-${version}.tgz`.toLowerCase(),
    distTags: Object.keys(record(doc["dist-tags"])),
    metadata,
  };
}

function checkIntegrity(integrity: string, hashes: FileHashes): void {
  const dash = integrity.indexOf("-");
  const algorithm = dash < 0 ? "" : integrity.slice(0, dash);
  const expected = dash < 0 ? undefined : Buffer.from(integrity.slice(dash + 1), "base64").toString("hex");
  const actual = algorithm === "sha512" ? hashes.sha512 : algorithm === "sha1" ? hashes.sha1 : undefined;
  if (expected === undefined || actual === undefined || expected !== actual)
    throw new BadRequestError("failed to validate integrity");
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** npm's author is a string or `{name, email, url}`; Forgejo keeps the name. */
function author(value: unknown): string {
  return typeof value === "string" ? value : str(record(value).name);
}

function opt<K extends string>(key: K, value: string): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}

function optList<K extends string>(key: K, value: unknown): Partial<Record<K, string[]>> {
  if (!Array.isArray(value)) return {};
  const list = value.filter((v): v is string => typeof v === "string");
  return list.length > 0 ? ({ [key]: list } as Record<K, string[]>) : {};
}

function optMap<K extends string>(key: K, value: unknown): Partial<Record<K, Record<string, string>>> {
  const entries = Object.entries(record(value)).filter(
    (e): e is [string, string] => typeof e[1] === "string",
  );
  return entries.length > 0
    ? ({ [key]: Object.fromEntries(entries) } as Record<K, Record<string, string>>)
    : {};
}
