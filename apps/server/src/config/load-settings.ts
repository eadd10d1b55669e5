import { isAbsolute, resolve } from "node:path";
import {
  type DatabaseSettings,
  DEFAULT_ATTACHMENT_TYPES,
  DEFAULT_CLOSE_KEYWORDS,
  DEFAULT_PGLITE_SHARED_BUFFERS,
  DEFAULT_REACTIONS,
  DEFAULT_REOPEN_KEYWORDS,
  DEFAULT_SSH_MINIMUM_KEY_SIZES,
  PACKAGE_TYPES,
  PGLITE_SHARED_BUFFERS_RANGE,
  type Settings,
} from "@kiln/domain";
import { tryParseByteSize } from "@kiln/quota";
import type { IniSections } from "./ini.js";

/** A configuration value that cannot be used; start-up stops with this message. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Where the settings came from, for paths and ports that flags override. */
export interface LoadOptions {
  /** Absolute work path (`--work-path`). */
  readonly workPath: string;
  /** `--port`, which wins over `[server] HTTP_PORT`. */
  readonly port?: number;
  /** `DATABASE_URL` from the environment, which selects PostgreSQL. */
  readonly databaseUrl?: string;
  /** Warnings for values that are accepted but ignored or replaced (e.g. a TOTAL that is not a size). */
  readonly warn?: (message: string) => void;
}

/**
 * Turns `app.ini` sections into validated settings. Keys Kiln does not read are ignored; a value
 * it reads but cannot use throws ConfigError naming the section and key.
 */
export function loadSettings(ini: IniSections, options: LoadOptions): Settings {
  const get = reader(ini);
  const workPath = options.workPath;
  const path = (value: string) => (isAbsolute(value) ? value : resolve(workPath, value));

  const httpPort = options.port ?? get.port("server", "HTTP_PORT", 3000);
  const httpAddr = get.string("server", "HTTP_ADDR", "127.0.0.1");
  const domain = get.string("server", "DOMAIN", "localhost");
  const protocol = get.oneOf("server", "PROTOCOL", ["http", "https"], "http");
  const rootUrl = withSlash(get.url("server", "ROOT_URL", `${protocol}://${domain}:${httpPort}/`));
  const appDataPath = path(get.string("server", "APP_DATA_PATH", "data"));

  return {
    server: {
      rootUrl,
      httpAddr,
      httpPort,
      workPath,
      appDataPath,
      gracefulHammerTime: get.duration("server", "GRACEFUL_HAMMER_TIME", 30_000),
    },
    database: database(get, options, (p) => (isAbsolute(p) ? p : resolve(workPath, p)), appDataPath),
    api: {
      defaultPagingNum: get.int("api", "DEFAULT_PAGING_NUM", 30, 1),
      maxResponseItems: get.int("api", "MAX_RESPONSE_ITEMS", 50, 1),
      defaultGitTreesPerPage: get.int("api", "DEFAULT_GIT_TREES_PER_PAGE", 1000, 1),
      defaultMaxBlobSize: get.int("api", "DEFAULT_MAX_BLOB_SIZE", 10485760, 0),
      maxBodySize: get.size("api", "MAX_BODY_SIZE", 1048576),
      maxDirectoryEntries: get.int("api", "MAX_DIRECTORY_ENTRIES", 1000, 1),
      maxChangeFiles: get.int("api", "MAX_CHANGE_FILES", 100, 1),
    },
    security: {
      installLock: get.bool("security", "INSTALL_LOCK", true),
      secretKey: get.string("security", "SECRET_KEY", ""),
      credentialCacheTtl: get.duration("security", "CREDENTIAL_CACHE_TTL", 10_000),
    },
    service: {
      enableBasicAuthentication: get.bool("service", "ENABLE_BASIC_AUTHENTICATION", true),
      enableTimetracking: get.bool("service", "ENABLE_TIMETRACKING", true),
      enableDependencies: get.bool("service", "DEFAULT_ENABLE_DEPENDENCIES", true),
      allowCrossRepositoryDependencies: get.bool("service", "ALLOW_CROSS_REPOSITORY_DEPENDENCIES", true),
      autoWatchNewRepos: get.bool("service", "AUTO_WATCH_NEW_REPOS", true),
      disableRegistration: get.bool("service", "DISABLE_REGISTRATION", false),
    },
    repository: {
      root: path(get.string("repository", "ROOT", `${appDataPath}/repositories`)),
      disableMirrors: get.bool("repository", "DISABLE_MIRRORS", false),
      disableHttpGit: get.bool("repository", "DISABLE_HTTP_GIT", false),
      maxCreationLimit: get.int("repository", "MAX_CREATION_LIMIT", -1, -1),
      maxPinned: get.int("repository.issue", "MAX_PINNED", 3, 0),
      enableFlags: get.bool("repository", "ENABLE_FLAGS", false),
      closeKeywords: get.list("repository.pull-request", "CLOSE_KEYWORDS", DEFAULT_CLOSE_KEYWORDS),
      reopenKeywords: get.list("repository.pull-request", "REOPEN_KEYWORDS", DEFAULT_REOPEN_KEYWORDS),
      maxRefs: get.int("repository", "MAX_REFS", 50_000, 1),
      maxFiles: get.int("repository", "MAX_FILES", 500_000, 1),
    },
    git: {
      maxProcesses: get.int("git", "MAX_PROCESSES", 32, 1),
      maxStreams: get.int("git", "MAX_STREAMS", 64, 1),
      maxPerRepository: get.int("git", "MAX_PROCESSES_PER_REPO", 8, 1),
      maxOpenFiles: get.int("git", "MAX_OPEN_FILES", 256, 16),
      queueTimeout: get.duration("git", "QUEUE_TIMEOUT", 30_000),
    },
    migrations: { allowLocalNetworks: get.bool("migrations", "ALLOW_LOCALNETWORKS", false) },
    federation: {
      enabled: get.bool("federation", "ENABLED", false),
      shareUserStatistics: get.bool("federation", "SHARE_USER_STATISTICS", true),
    },
    mirror: mirrorSettings(get),
    ssh: sshSettings(ini, get),
    lfs: {
      enabled: get.bool("server", "LFS_START_SERVER", true),
      path: path(get.string("lfs", "PATH", `${appDataPath}/lfs`)),
      maxBatchSize: get.int("server", "LFS_MAX_BATCH_SIZE", 1000, 1),
      locksPagingNum: get.int("server", "LFS_LOCKS_PAGING_NUM", 50, 1),
      maxLocks: get.int("server", "LFS_MAX_LOCKS", 10_000, 1),
    },
    ui: { reactions: get.list("ui", "REACTIONS", DEFAULT_REACTIONS) },
    attachment: {
      enabled: get.bool("attachment", "ENABLED", true),
      allowedTypes: get.string("attachment", "ALLOWED_TYPES", DEFAULT_ATTACHMENT_TYPES),
      maxSize: get.int("attachment", "MAX_SIZE", 2048, 0),
      maxFiles: get.int("attachment", "MAX_FILES", 5, 0),
      path: storagePath(get, path, appDataPath, "attachments", "attachment"),
      releaseAllowedTypes: get.string("repository.release", "ALLOWED_TYPES", ""),
    },
    actions: {
      artifactsPath: storagePath(get, path, appDataPath, "actions_artifacts", "actions.artifacts"),
      artifactRetentionDays: get.int("actions", "ARTIFACT_RETENTION_DAYS", 90, 1),
      artifactMaxSize: get.size("actions", "ARTIFACT_MAX_SIZE", 2 * 1024 ** 3),
    },
    cron: cronSettings(ini, get),
    packages: packageSettings(get, storagePath(get, path, appDataPath, "packages", "packages")),
    webhook: {
      allowedHostList: get.string("webhook", "ALLOWED_HOST_LIST", "external").trim() || "external",
      deliverTimeout: get.int("webhook", "DELIVER_TIMEOUT", 5, 1) * 1000,
      maxRetries: get.int("webhook", "MAX_RETRIES", 3, 0),
      retryBackoff: get.duration("webhook", "RETRY_BACKOFF", 10_000),
      queueLength: get.int("webhook", "QUEUE_LENGTH", 1000, 1),
      skipTlsVerify: get.bool("webhook", "SKIP_TLS_VERIFY", false),
      proxyUrl: get.string("webhook", "PROXY_URL", ""),
      pagingNum: get.int("webhook", "PAGING_NUM", 10, 1),
    },
    oauth2: oauth2Settings(get),
    session: {
      cookieName: get.string("session", "COOKIE_NAME", "i_like_gitea") || "i_like_gitea",
      sessionLifeTime: get.int("session", "SESSION_LIFE_TIME", 86400, 60),
      cookieSecure: get.bool("session", "COOKIE_SECURE", rootUrl.startsWith("https:")),
    },
    picture: {
      avatarPath: storagePath(get, path, appDataPath, "avatars", "avatars"),
      avatarMaxFileSize: get.size("picture", "AVATAR_MAX_FILE_SIZE", 1024 * 1024),
      avatarMaxWidth: get.int("picture", "AVATAR_MAX_WIDTH", 4096, 1),
      avatarMaxHeight: get.int("picture", "AVATAR_MAX_HEIGHT", 4096, 1),
      repositoryAvatarFallback: get.oneOf(
        "picture",
        "REPOSITORY_AVATAR_FALLBACK",
        ["none", "random", "image"],
        "none",
      ),
      repositoryAvatarFallbackImage: get.string(
        "picture",
        "REPOSITORY_AVATAR_FALLBACK_IMAGE",
        "/assets/img/repo_default.png",
      ),
    },
    quota: {
      enabled: get.bool("quota", "ENABLED", true),
      enforce: get.bool("quota", "ENFORCE", false),
      defaultGroups: get.list("quota", "DEFAULT_GROUPS", []),
      defaultTotal: byteSize(get.string("quota.default", "TOTAL", "-1"), options.warn),
    },
  };
}

/** The signing algorithms Kiln's OAuth2 provider supports (Forgejo's asymmetric ones). */
const JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "EdDSA"];

/** `[oauth2]` with Forgejo's defaults; a symmetric JWT_SIGNING_ALGORITHM (HS*) is refused. */
function oauth2Settings(get: ReturnType<typeof reader>): Settings["oauth2"] {
  const algorithm = get.string("oauth2", "JWT_SIGNING_ALGORITHM", "RS256") || "RS256";
  if (!JWT_ALGORITHMS.includes(algorithm)) {
    throw new ConfigError(
      `invalid value for [oauth2] JWT_SIGNING_ALGORITHM: "${algorithm}" is not one of ${JWT_ALGORITHMS.join(", ")}`,
    );
  }
  return {
    enabled: get.bool("oauth2", "ENABLED", true),
    accessTokenExpirationTime: get.int("oauth2", "ACCESS_TOKEN_EXPIRATION_TIME", 3600, 1),
    refreshTokenExpirationTime: get.int("oauth2", "REFRESH_TOKEN_EXPIRATION_TIME", 730, 1),
    invalidateRefreshTokens: get.bool("oauth2", "INVALIDATE_REFRESH_TOKENS", false),
    jwtSigningAlgorithm: algorithm,
  };
}

/** `[quota.default] TOTAL` as Forgejo reads it: sizes with units; anything else means unlimited. */
function byteSize(text: string, warn: LoadOptions["warn"]): number {
  const value = tryParseByteSize(text);
  if (value === undefined) {
    warn?.(`[quota.default] TOTAL = "${text}" is not a size; using -1 (unlimited), as Forgejo does`);
    return -1;
  }
  return value;
}

/**
 * Where a kind of stored files lives, as Forgejo's storage sections say: the kind's own section
 * (`[attachment] PATH`), else `[storage.<name>] PATH`, else `[storage] PATH` + `/<name>`, else
 * `<APP_DATA_PATH>/<name>`; relative paths are taken from the work path.
 */
export function storagePath(
  get: ReturnType<typeof reader>,
  path: (value: string) => string,
  appDataPath: string,
  name: string,
  section: string,
): string {
  const own = get.string(section, "PATH", "") || get.string(`storage.${name}`, "PATH", "");
  if (own) return path(own);
  const shared = get.string("storage", "PATH", "");
  return shared ? `${path(shared)}/${name}` : `${appDataPath}/${name}`;
}

/** `[mirror]` as Forgejo's loadMirrorFrom: MIN_INTERVAL at least 1m, DEFAULT_INTERVAL at least MIN_INTERVAL. */
function mirrorSettings(get: ReturnType<typeof reader>): Settings["mirror"] {
  const enabled = get.bool("mirror", "ENABLED", true);
  const minInterval = Math.max(60_000, get.duration("mirror", "MIN_INTERVAL", 600_000));
  const defaultInterval = get.duration("mirror", "DEFAULT_INTERVAL", 8 * 3_600_000);
  return {
    enabled,
    disableNewPull: !enabled || get.bool("mirror", "DISABLE_NEW_PULL", false),
    disableNewPush: !enabled || get.bool("mirror", "DISABLE_NEW_PUSH", false),
    minInterval,
    defaultInterval: defaultInterval >= minInterval ? defaultInterval : Math.max(minInterval, 8 * 3_600_000),
  };
}

/** `[cron] ENABLED` and every `[cron.<task>]` section (ENABLED, RUN_AT_START, SCHEDULE). */
function cronSettings(ini: IniSections, get: ReturnType<typeof reader>): Settings["cron"] {
  const tasks: Record<string, { enabled?: boolean; runAtStart?: boolean; schedule?: string }> = {};
  for (const section of ini.keys()) {
    if (!section.startsWith("cron.")) continue;
    const keys = ini.get(section);
    tasks[section.slice("cron.".length)] = {
      ...(keys?.has("ENABLED") ? { enabled: get.bool(section, "ENABLED", true) } : {}),
      ...(keys?.has("RUN_AT_START") ? { runAtStart: get.bool(section, "RUN_AT_START", false) } : {}),
      ...(keys?.get("SCHEDULE") ? { schedule: get.string(section, "SCHEDULE", "") } : {}),
    };
  }
  return { enabled: get.bool("cron", "ENABLED", true), tasks };
}

/** `[ssh.minimum_key_sizes]` over Forgejo's defaults: a type set to -1 is no longer accepted. */
function sshSettings(ini: IniSections, get: ReturnType<typeof reader>): Settings["ssh"] {
  const minimumKeySizes: Record<string, number> = { ...DEFAULT_SSH_MINIMUM_KEY_SIZES };
  for (const key of ini.get("ssh.minimum_key_sizes")?.keys() ?? []) {
    const size = get.int("ssh.minimum_key_sizes", key, -1, -1);
    if (size === -1) delete minimumKeySizes[key.toLowerCase()];
    else minimumKeySizes[key.toLowerCase()] = size;
  }
  return { minimumKeySizeCheck: get.bool("ssh", "MINIMUM_KEY_SIZE_CHECK", true), minimumKeySizes };
}

/**
 * `[packages]` as Forgejo reads it: `LIMIT_TOTAL_OWNER_COUNT` a number, the sizes (`LIMIT_SIZE_<TYPE>`,
 * `LIMIT_TOTAL_OWNER_SIZE`) byte sizes with units; `-1` (the default) is no limit, anything else
 * that is not a size stops start-up (Forgejo's log.Fatal).
 */
function packageSettings(get: ReturnType<typeof reader>, path: string): Settings["packages"] {
  const size = (key: string): number => {
    const text = get.string("packages", key, "-1");
    const value = tryParseByteSize(text);
    if (value === undefined)
      throw new ConfigError(`invalid value for [packages] ${key}: "${text}" is not a size`);
    return value;
  };
  return {
    enabled: get.bool("packages", "ENABLED", true),
    path,
    limitTotalOwnerCount: get.int("packages", "LIMIT_TOTAL_OWNER_COUNT", -1, -1),
    limitTotalOwnerSize: size("LIMIT_TOTAL_OWNER_SIZE"),
    limitSize: Object.fromEntries(PACKAGE_TYPES.map((t) => [t, size(`LIMIT_SIZE_${t.toUpperCase()}`)])),
  };
}

function database(
  get: ReturnType<typeof reader>,
  options: LoadOptions,
  path: (p: string) => string,
  appDataPath: string,
): DatabaseSettings {
  const retry = {
    retries: get.int("database", "DB_RETRIES", 10, 0),
    retryBackoff: get.duration("database", "DB_RETRY_BACKOFF", 3_000),
  };
  if (options.databaseUrl) {
    const schema = get.string("database", "SCHEMA", "");
    return { type: "postgres", url: options.databaseUrl, ...(schema ? { schema } : {}), ...retry };
  }
  const type = get.oneOf("database", "DB_TYPE", ["pglite", "postgres"], "pglite");
  if (type === "pglite") {
    const sharedBuffers = get.size("database", "PGLITE_SHARED_BUFFERS", DEFAULT_PGLITE_SHARED_BUFFERS);
    const { min, max } = PGLITE_SHARED_BUFFERS_RANGE;
    if (sharedBuffers < min || sharedBuffers > max)
      throw new ConfigError(
        `invalid value for [database] PGLITE_SHARED_BUFFERS: ${sharedBuffers} bytes is not between 128KiB and 1GiB`,
      );
    return { type, path: path(get.string("database", "PATH", `${appDataPath}/pglite`)), sharedBuffers };
  }
  const host = get.string("database", "HOST", "127.0.0.1:5432");
  const name = get.string("database", "NAME", "kiln");
  const user = get.string("database", "USER", "postgres");
  const password = get.string("database", "PASSWD", "");
  const sslMode = get.oneOf(
    "database",
    "SSL_MODE",
    ["disable", "require", "verify-ca", "verify-full", "prefer"],
    "disable",
  );
  const schema = get.string("database", "SCHEMA", "");
  const auth = user
    ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ""}@`
    : "";
  const url = host.startsWith("/")
    ? `postgres://${auth}/${encodeURIComponent(name)}?host=${encodeURIComponent(host)}&sslmode=${sslMode}`
    : `postgres://${auth}${host}/${encodeURIComponent(name)}?sslmode=${sslMode}`;
  return { type, url, ...(schema ? { schema } : {}), ...retry };
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `1m30s`, `500ms`, `10s`, or a bare number of seconds, in milliseconds; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(t)) return undefined;
  let total = 0;
  for (const [, n, , unit] of t.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g))
    total += Number(n) * (DURATION_UNITS[unit ?? "s"] ?? 0);
  return Math.round(total);
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

/** Typed accessors over the sections; every failure names `[section] KEY`. */
function reader(ini: IniSections) {
  const raw = (section: string, key: string): string | undefined => ini.get(section)?.get(key);
  const fail = (section: string, key: string, value: string, why: string): never => {
    throw new ConfigError(`invalid value for [${section}] ${key}: "${value}" ${why}`);
  };
  return {
    string(section: string, key: string, fallback: string): string {
      return raw(section, key) ?? fallback;
    },
    int(section: string, key: string, fallback: number, min: number): number {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      if (!/^-?\d+$/.test(value)) fail(section, key, value, "is not an integer");
      const n = Number(value);
      if (n < min) fail(section, key, value, `must be at least ${min}`);
      return n;
    },
    port(section: string, key: string, fallback: number): number {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      if (!/^\d+$/.test(value) || Number(value) > 65535)
        fail(section, key, value, "is not a port number (0-65535)");
      return Number(value);
    },
    bool(section: string, key: string, fallback: boolean): boolean {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      if (["1", "t", "T", "true", "TRUE", "True"].includes(value)) return true;
      if (["0", "f", "F", "false", "FALSE", "False"].includes(value)) return false;
      return fail(section, key, value, "is not a boolean (true or false)");
    },
    oneOf<const T extends string>(section: string, key: string, values: readonly T[], fallback: T): T {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      const match = values.find((v) => v === value.toLowerCase());
      return match ?? fail(section, key, value, `is not one of ${values.join(", ")}`);
    },
    url(section: string, key: string, fallback: string): string {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      try {
        const parsed = new URL(value);
        if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("scheme");
      } catch {
        fail(section, key, value, "is not an http(s) URL");
      }
      return value;
    },
    /** A byte size with an optional unit (`1MiB`, `512KB`, `1048576`). */
    size(section: string, key: string, fallback: number): number {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      const n = tryParseByteSize(value);
      return n !== undefined && n > 0 ? n : fail(section, key, value, "is not a positive size (e.g. 1MiB)");
    },
    /** A Go-style duration (`30s`, `1m`, `500ms`, `1h`) or plain seconds; returned in milliseconds. */
    duration(section: string, key: string, fallback: number): number {
      const value = raw(section, key);
      if (value === undefined || value === "") return fallback;
      const ms = parseDuration(value);
      return ms ?? fail(section, key, value, "is not a duration (e.g. 30s, 1m)");
    },
    list(section: string, key: string, fallback: readonly string[]): string[] {
      const value = raw(section, key);
      if (value === undefined) return [...fallback];
      return value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
    },
  };
}
