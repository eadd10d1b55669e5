/** Forgejo's `[repository.pull-request] CLOSE_KEYWORDS`. */
export const DEFAULT_CLOSE_KEYWORDS: readonly string[] = [
  "close",
  "closes",
  "closed",
  "fix",
  "fixes",
  "fixed",
  "resolve",
  "resolves",
  "resolved",
];

/** Forgejo's `[repository.pull-request] REOPEN_KEYWORDS`. */
export const DEFAULT_REOPEN_KEYWORDS: readonly string[] = ["reopen", "reopens", "reopened"];

/**
 * The instance's settings, read from `app.ini` (Forgejo's format) plus environment overrides.
 * Parsing lives in the server app; everything below it receives this plain, validated object.
 */
export interface Settings {
  readonly server: {
    /** Public base URL, always ending in "/". Used in Link headers, `url` fields and clone URLs. */
    readonly rootUrl: string;
    readonly httpAddr: string;
    readonly httpPort: number;
    /** Absolute work path (`--work-path`); relative paths in the config resolve against it. */
    readonly workPath: string;
    /** Absolute data directory (`[server] APP_DATA_PATH`, default `<work-path>/data`). */
    readonly appDataPath: string;
    /** `[server] GRACEFUL_HAMMER_TIME` in ms: how long a stopping server drains before it exits anyway. */
    readonly gracefulHammerTime: number;
  };
  readonly database: DatabaseSettings;
  readonly api: {
    readonly defaultPagingNum: number;
    readonly maxResponseItems: number;
    readonly defaultGitTreesPerPage: number;
    readonly defaultMaxBlobSize: number;
    /** `[api] MAX_BODY_SIZE` in bytes (a Kiln key): the largest JSON request body; larger is 413. */
    readonly maxBodySize: number;
    /** `[api] MAX_DIRECTORY_ENTRIES` (a Kiln key): the most entries a contents directory listing answers. */
    readonly maxDirectoryEntries: number;
    /** `[api] MAX_CHANGE_FILES` (a Kiln key): the most file operations of one change request; more is 422. */
    readonly maxChangeFiles: number;
  };
  readonly security: {
    readonly installLock: boolean;
    readonly secretKey: string;
    /**
     * `[security] CREDENTIAL_CACHE_TTL` in ms (a Kiln key): how long a resolved access token stays
     * cached in process. Changes made by this process invalidate at once; the TTL bounds how long
     * another process sharing the database may still honour a deleted token. 0 disables the cache.
     */
    readonly credentialCacheTtl: number;
  };
  readonly service: {
    readonly enableBasicAuthentication: boolean;
    /** `[service] ENABLE_TIMETRACKING`: tracked time and stopwatches on issues. */
    readonly enableTimetracking: boolean;
    /** `[service] DEFAULT_ENABLE_DEPENDENCIES`: blocking dependencies between issues. */
    readonly enableDependencies: boolean;
    /** `[service] ALLOW_CROSS_REPOSITORY_DEPENDENCIES`: a dependency may be an issue of another repository. */
    readonly allowCrossRepositoryDependencies: boolean;
    /** `[service] AUTO_WATCH_NEW_REPOS`: a repository's creator (and all-repository teams) watch it. */
    readonly autoWatchNewRepos: boolean;
    /** `[service] DISABLE_REGISTRATION` (default false): no sign-up page; only admins create accounts. */
    readonly disableRegistration: boolean;
  };
  readonly repository: {
    /** Absolute directory holding `<owner>/<name>.git`. */
    readonly root: string;
    readonly disableMirrors: boolean;
    readonly disableHttpGit: boolean;
    /** -1 = no limit; a per-user `max_repo_creation` of -1 falls back to this. */
    readonly maxCreationLimit: number;
    /** `[repository.issue] MAX_PINNED`: pinned issues (and, separately, pull requests) per repository. */
    readonly maxPinned: number;
    /** `[repository] ENABLE_FLAGS`: site administrators may put flags on repositories (`…/flags`). */
    readonly enableFlags: boolean;
    /** `[repository.pull-request] CLOSE_KEYWORDS`: words before `#N` that close issue N (`Fixes #1`). */
    readonly closeKeywords: readonly string[];
    /** `[repository.pull-request] REOPEN_KEYWORDS`: words before `#N` that reopen issue N. */
    readonly reopenKeywords: readonly string[];
    /** `[repository] MAX_REFS` (a Kiln key): the most refs a push may leave a repository or wiki with. */
    readonly maxRefs: number;
    /** `[repository] MAX_FILES` (a Kiln key): the most files the tree of a pushed branch or tag may hold. */
    readonly maxFiles: number;
  };
  /** `[git]` (Kiln keys): caps on concurrent git work, process-wide (docs/architecture.md, Bounds). */
  readonly git: GitWorkSettings;
  /** `[federation]`: Kiln speaks no ActivityPub yet; only `/nodeinfo` follows these keys. */
  readonly federation: {
    /** `ENABLED`: serve `/api/v1/nodeinfo` and `/.well-known/nodeinfo`. */
    readonly enabled: boolean;
    /** `SHARE_USER_STATISTICS`: nodeinfo tells how many users, issues and comments there are. */
    readonly shareUserStatistics: boolean;
  };
  readonly migrations: {
    /** Whether `POST /repos/migrate` may clone from loopback and private-network addresses. */
    readonly allowLocalNetworks: boolean;
  };
  /** `[mirror]`: pull and push mirrors (Forgejo's setting.Mirror). */
  readonly mirror: MirrorSettings;
  /** `[ssh]`: which SSH keys are accepted (Kiln serves no SSH; keys verify commit signatures). */
  readonly ssh: SshSettings;
  readonly lfs: {
    readonly enabled: boolean;
    /** Absolute directory of the content-addressed LFS object store. */
    readonly path: string;
    /** `[server] LFS_MAX_BATCH_SIZE`: most objects in one batch request; more is 413. */
    readonly maxBatchSize: number;
    /** `[server] LFS_LOCKS_PAGING_NUM`: most locks in one page of the locks API (and the default page). */
    readonly locksPagingNum: number;
    /**
     * `[server] LFS_MAX_LOCKS` (Kiln's own): most Git LFS locks one repository holds; every push
     * reads all the locks other users hold, so their number is bounded.
     */
    readonly maxLocks: number;
  };
  readonly ui: {
    readonly reactions: readonly string[];
  };
  readonly attachment: {
    readonly enabled: boolean;
    readonly allowedTypes: string;
    /** Megabytes, as in Forgejo. */
    readonly maxSize: number;
    readonly maxFiles: number;
    /**
     * Absolute directory of the attachments' content-addressed blob store: `[attachment] PATH`,
     * else `[storage.attachments] PATH`, else `[storage] PATH` + `/attachments`, else
     * `<APP_DATA_PATH>/attachments` (Forgejo's storage sections).
     */
    readonly path: string;
    /** `[repository.release] ALLOWED_TYPES`: what release assets may be (empty: anything). */
    readonly releaseAllowedTypes: string;
  };
  /** `[actions]` and `[actions.artifacts]`: Actions artifacts (Kiln has no runner protocol). */
  readonly actions: {
    /**
     * Absolute directory of the artifacts' content-addressed blob store: `[actions.artifacts] PATH`,
     * else `[storage.actions_artifacts] PATH`, else `[storage] PATH` + `/actions_artifacts`, else
     * `<APP_DATA_PATH>/actions_artifacts` (Forgejo's storage sections).
     */
    readonly artifactsPath: string;
    /** `[actions] ARTIFACT_RETENTION_DAYS` (default 90): the longest and the default retention. */
    readonly artifactRetentionDays: number;
    /** `[actions] ARTIFACT_MAX_SIZE` (a Kiln key, bytes, default 2 GiB): the largest artifact upload. */
    readonly artifactMaxSize: number;
  };
  /** `[cron]`: the periodic tasks `kiln web` runs. */
  readonly cron: {
    /** `[cron] ENABLED` (default true): whether tasks run on their schedules. */
    readonly enabled: boolean;
    /** `[cron.<task>]` sections, by task name. */
    readonly tasks: Readonly<Record<string, CronTaskSettings>>;
  };
  readonly packages: PackageSettings;
  readonly webhook: WebhookSettings;
  readonly oauth2: OAuth2Settings;
  readonly session: SessionSettings;
  readonly picture: PictureSettings;
  readonly quota: {
    readonly enabled: boolean;
    /**
     * `[quota] ENFORCE` (a Kiln key, decision 6, docs/decisions.md): refuse writes of owners over quota with 413
     * where Forgejo does. Off by default: nothing is rejected because of quota.
     */
    readonly enforce: boolean;
    readonly defaultGroups: readonly string[];
    /** `[quota.default] TOTAL` in bytes; -1 = unlimited. */
    readonly defaultTotal: number;
  };
}

/** `[git]`: how much git work runs at once; work beyond waits in a fair queue, then gets 503. */
export interface GitWorkSettings {
  /** `MAX_PROCESSES`: short git commands at once. */
  readonly maxProcesses: number;
  /** `MAX_STREAMS`: long-lived git processes at once (clones, fetches, pushes, streamed blobs). */
  readonly maxStreams: number;
  /** `MAX_PROCESSES_PER_REPO`: how many of each one repository may hold. */
  readonly maxPerRepository: number;
  /** `MAX_OPEN_FILES`: files Kiln holds open at once for git data. */
  readonly maxOpenFiles: number;
  /** `QUEUE_TIMEOUT` in ms: how long work waits for a slot before it is answered 503. */
  readonly queueTimeout: number;
}

/**
 * `[mirror]`, as Forgejo's: `ENABLED = false` refuses new mirrors and stops syncing existing ones
 * (the mirror routes answer 400); `DISABLE_NEW_PULL` / `DISABLE_NEW_PUSH` refuse only new ones
 * (as does `[repository] DISABLE_MIRRORS`, for both kinds). Intervals are in milliseconds.
 */
export interface MirrorSettings {
  readonly enabled: boolean;
  readonly disableNewPull: boolean;
  readonly disableNewPush: boolean;
  /** `DEFAULT_INTERVAL` (8h): a new pull mirror's interval when none is given. */
  readonly defaultInterval: number;
  /** `MIN_INTERVAL` (10m, at least 1m): the shortest interval other than 0 (no periodic sync). */
  readonly minInterval: number;
}

/** `[ssh] MINIMUM_KEY_SIZE_CHECK` and `[ssh.minimum_key_sizes]`, with Forgejo's defaults. */
export interface SshSettings {
  /** Whether keys are checked against {@link SshSettings.minimumKeySizes} (default true). */
  readonly minimumKeySizeCheck: boolean;
  /** Smallest size in bits per key type (`ed25519`, `ecdsa`, `rsa`, …); a type absent is refused. */
  readonly minimumKeySizes: Readonly<Record<string, number>>;
}

/** Forgejo's default `[ssh.minimum_key_sizes]` (DSA is not accepted). */
export const DEFAULT_SSH_MINIMUM_KEY_SIZES: Readonly<Record<string, number>> = {
  ed25519: 256,
  "ed25519-sk": 256,
  ecdsa: 256,
  "ecdsa-sk": 256,
  rsa: 3071,
};

/** `[picture]` and `[avatars]`: uploaded avatars of users, organizations and repositories. */
export interface PictureSettings {
  /**
   * Absolute directory of the avatars' content-addressed blob store (user, organization and
   * repository avatars alike): `[avatars] PATH`, else `[storage.avatars] PATH`, else
   * `[storage] PATH` + `/avatars`, else `<APP_DATA_PATH>/avatars`.
   */
  readonly avatarPath: string;
  /** `[picture] AVATAR_MAX_FILE_SIZE` in bytes (default 1 MiB). */
  readonly avatarMaxFileSize: number;
  /** `[picture] AVATAR_MAX_WIDTH` in pixels (default 4096). */
  readonly avatarMaxWidth: number;
  /** `[picture] AVATAR_MAX_HEIGHT` in pixels (default 4096). */
  readonly avatarMaxHeight: number;
  /**
   * `[picture] REPOSITORY_AVATAR_FALLBACK`: what a repository without an uploaded avatar shows
   * as `avatar_url`: nothing (`none`, Forgejo's default), a generated image (`random`) or
   * {@link repositoryAvatarFallbackImage} (`image`).
   */
  readonly repositoryAvatarFallback: "none" | "random" | "image";
  /** `[picture] REPOSITORY_AVATAR_FALLBACK_IMAGE` (default `/assets/img/repo_default.png`). */
  readonly repositoryAvatarFallbackImage: string;
}

/** A `[cron.<task>]` section: what it sets overrides the task's own default. */
export interface CronTaskSettings {
  readonly enabled?: boolean;
  readonly runAtStart?: boolean;
  /** `@every 1h`, `@midnight`, or a cron expression. */
  readonly schedule?: string;
}

/**
 * `[packages]`: the package registries. Sizes are in bytes; `-1` means no limit (Forgejo's
 * defaults). Site administrators are not held to the limits, as in Forgejo.
 */
export interface PackageSettings {
  readonly enabled: boolean;
  /** Absolute directory of the packages' content-addressed blob store (`[packages] PATH`). */
  readonly path: string;
  /** `LIMIT_TOTAL_OWNER_COUNT`: most package versions one owner may have. */
  readonly limitTotalOwnerCount: number;
  /** `LIMIT_TOTAL_OWNER_SIZE`: most bytes of package files one owner may have. */
  readonly limitTotalOwnerSize: number;
  /** `LIMIT_SIZE_<TYPE>` by type (`generic`, `npm`, …): the largest file of that type. */
  readonly limitSize: Readonly<Record<string, number>>;
}

/** `[webhook]`: where hooks may deliver and how the delivery queue behaves. */
export interface WebhookSettings {
  /**
   * `ALLOWED_HOST_LIST` (Forgejo's hostmatcher list, default `external`): comma-separated
   * keywords `loopback`, `private`, `external`, `*`, CIDRs and host-name globs, checked against
   * the address a delivery actually connects to.
   */
  readonly allowedHostList: string;
  /** `DELIVER_TIMEOUT` in ms (Forgejo's key is seconds, default 5). */
  readonly deliverTimeout: number;
  /** `MAX_RETRIES` (a Kiln key, default 3): retries of a failed delivery, after the first attempt. */
  readonly maxRetries: number;
  /** `RETRY_BACKOFF` (a Kiln key, ms, default 10s): the first retry's delay, doubled for each next. */
  readonly retryBackoff: number;
  /** `QUEUE_LENGTH` (Forgejo's, default 1000): accepted; Kiln's queue is the hook_task table, unbounded. */
  readonly queueLength: number;
  /** `SKIP_TLS_VERIFY`: deliver to https hosts without checking their certificate. */
  readonly skipTlsVerify: boolean;
  /** `PROXY_URL`: accepted and reported; Kiln delivers directly (see configuration.md). */
  readonly proxyUrl: string;
  /** `PAGING_NUM` (Forgejo's, default 10): hooks per page in Forgejo's UI; unused by the API. */
  readonly pagingNum: number;
}

/** `[oauth2]`: the OAuth2 provider (Forgejo's keys and defaults). */
export interface OAuth2Settings {
  /** `ENABLED` (default true): the provider and `/user/applications/oauth2`; off, they answer 404. */
  readonly enabled: boolean;
  /** `ACCESS_TOKEN_EXPIRATION_TIME` in seconds (default 3600). */
  readonly accessTokenExpirationTime: number;
  /** `REFRESH_TOKEN_EXPIRATION_TIME` in hours (default 730). */
  readonly refreshTokenExpirationTime: number;
  /** `INVALIDATE_REFRESH_TOKENS` (default false): a refresh token is good for one use only. */
  readonly invalidateRefreshTokens: boolean;
  /** `JWT_SIGNING_ALGORITHM` (default RS256): RS256/384/512, ES256/384/512 or EdDSA. */
  readonly jwtSigningAlgorithm: string;
}

/** `[session]`: the web pages' sign-in sessions (stored in the database). */
export interface SessionSettings {
  /** `COOKIE_NAME` (default `i_like_gitea`). */
  readonly cookieName: string;
  /** `SESSION_LIFE_TIME` in seconds (default 86400). */
  readonly sessionLifeTime: number;
  /** `COOKIE_SECURE` (default: true when ROOT_URL is https). */
  readonly cookieSecure: boolean;
}

/**
 * PGlite's buffer pool unless `[database] PGLITE_SHARED_BUFFERS` says otherwise: sized for a small
 * instance (PostgreSQL's own default is 128 MiB, which PGlite holds resident whether used or not).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = 16 * 1024 * 1024;

/** The bounds of `PGLITE_SHARED_BUFFERS`: PostgreSQL's minimum (16 pages) and half of PGlite's 2 GiB memory. */
export const PGLITE_SHARED_BUFFERS_RANGE = { min: 128 * 1024, max: 1024 * 1024 * 1024 } as const;

/** Which database the instance uses: embedded PGlite (default) or a PostgreSQL server. */
export type DatabaseSettings =
  | {
      readonly type: "pglite" /** Absolute data directory, or "memory://" for tests. */;
      readonly path: string;
      /**
       * PostgreSQL's `shared_buffers` inside PGlite, in bytes (`[database] PGLITE_SHARED_BUFFERS`,
       * default {@link DEFAULT_PGLITE_SHARED_BUFFERS}). PGlite's memory never shrinks, so this
       * buffer pool is resident for the life of the process.
       */
      readonly sharedBuffers?: number;
    }
  | {
      readonly type: "postgres";
      /** A full connection string (`DATABASE_URL` or built from HOST/NAME/USER/PASSWD/SSL_MODE). */
      readonly url: string;
      /** Optional schema to use instead of `public` (tests use a fresh one per run). */
      readonly schema?: string;
      /** `DB_RETRIES`: how many more times `kiln web` tries to reach the database at start-up (10). */
      readonly retries?: number;
      /** `DB_RETRY_BACKOFF` (ms): the wait before the first retry, doubling up to 30 s (3 s). */
      readonly retryBackoff?: number;
    };

/** Forgejo's default reactions (`[ui] REACTIONS`). */
export const DEFAULT_REACTIONS = [
  "+1",
  "-1",
  "laugh",
  "hooray",
  "confused",
  "heart",
  "rocket",
  "eyes",
] as const;

/** Forgejo's default `[attachment] ALLOWED_TYPES`. */
export const DEFAULT_ATTACHMENT_TYPES =
  ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip";

/** Settings with every default, rooted at `workPath`; tests and embedders start from this. */
export function defaultSettings(workPath: string, overrides: SettingsOverrides = {}): Settings {
  const appDataPath = `${workPath.replace(/\/+$/, "")}/data`;
  const base: Settings = {
    server: {
      rootUrl: "http://localhost:3000/",
      httpAddr: "127.0.0.1",
      httpPort: 3000,
      workPath,
      appDataPath,
      gracefulHammerTime: 30_000,
    },
    database: { type: "pglite", path: `${appDataPath}/pglite` },
    api: {
      defaultPagingNum: 30,
      maxResponseItems: 50,
      defaultGitTreesPerPage: 1000,
      defaultMaxBlobSize: 10485760,
      maxBodySize: 1048576,
      maxDirectoryEntries: 1000,
      maxChangeFiles: 100,
    },
    security: { installLock: true, secretKey: "", credentialCacheTtl: 10_000 },
    service: {
      enableBasicAuthentication: true,
      enableTimetracking: true,
      enableDependencies: true,
      allowCrossRepositoryDependencies: true,
      autoWatchNewRepos: true,
      disableRegistration: false,
    },
    repository: {
      root: `${appDataPath}/repositories`,
      disableMirrors: false,
      disableHttpGit: false,
      maxCreationLimit: -1,
      maxPinned: 3,
      enableFlags: false,
      closeKeywords: DEFAULT_CLOSE_KEYWORDS,
      reopenKeywords: DEFAULT_REOPEN_KEYWORDS,
      maxRefs: 50_000,
      maxFiles: 500_000,
    },
    git: {
      maxProcesses: 32,
      maxStreams: 64,
      maxPerRepository: 8,
      maxOpenFiles: 256,
      queueTimeout: 30_000,
    },
    federation: { enabled: false, shareUserStatistics: true },
    migrations: { allowLocalNetworks: false },
    mirror: {
      enabled: true,
      disableNewPull: false,
      disableNewPush: false,
      defaultInterval: 8 * 3_600_000,
      minInterval: 600_000,
    },
    ssh: { minimumKeySizeCheck: true, minimumKeySizes: { ...DEFAULT_SSH_MINIMUM_KEY_SIZES } },
    lfs: {
      enabled: true,
      path: `${appDataPath}/lfs`,
      maxBatchSize: 1000,
      locksPagingNum: 50,
      maxLocks: 10_000,
    },
    ui: { reactions: [...DEFAULT_REACTIONS] },
    attachment: {
      enabled: true,
      allowedTypes: DEFAULT_ATTACHMENT_TYPES,
      maxSize: 2048,
      maxFiles: 5,
      path: `${appDataPath}/attachments`,
      releaseAllowedTypes: "",
    },
    actions: {
      artifactsPath: `${appDataPath}/actions_artifacts`,
      artifactRetentionDays: 90,
      artifactMaxSize: 2 * 1024 ** 3,
    },
    cron: { enabled: true, tasks: {} },
    packages: {
      enabled: true,
      path: `${appDataPath}/packages`,
      limitTotalOwnerCount: -1,
      limitTotalOwnerSize: -1,
      limitSize: {},
    },
    webhook: {
      allowedHostList: "external",
      deliverTimeout: 5_000,
      maxRetries: 3,
      retryBackoff: 10_000,
      queueLength: 1000,
      skipTlsVerify: false,
      proxyUrl: "",
      pagingNum: 10,
    },
    oauth2: {
      enabled: true,
      accessTokenExpirationTime: 3600,
      refreshTokenExpirationTime: 730,
      invalidateRefreshTokens: false,
      jwtSigningAlgorithm: "RS256",
    },
    session: { cookieName: "i_like_gitea", sessionLifeTime: 86400, cookieSecure: false },
    quota: { enabled: true, enforce: false, defaultGroups: [], defaultTotal: -1 },
    picture: {
      avatarPath: `${appDataPath}/avatars`,
      avatarMaxFileSize: 1024 * 1024,
      avatarMaxWidth: 4096,
      avatarMaxHeight: 4096,
      repositoryAvatarFallback: "none",
      repositoryAvatarFallbackImage: "/assets/img/repo_default.png",
    },
  };
  return mergeSettings(base, overrides);
}

/** A partial settings object: each section may override some of its keys. */
export type SettingsOverrides = {
  readonly [S in keyof Settings]?: S extends "database" ? DatabaseSettings : Partial<Settings[S]>;
};

/** Applies section-wise overrides to settings. */
export function mergeSettings(base: Settings, overrides: SettingsOverrides): Settings {
  const out: Record<string, unknown> = { ...base };
  for (const [section, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    out[section] =
      section === "database" ? value : { ...(base as unknown as Record<string, object>)[section], ...value };
  }
  return out as unknown as Settings;
}
