import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string, extra: Partial<Parameters<typeof loadSettings>[1]> = {}) =>
  loadSettings(parseIni(text), { workPath: "/srv/kiln", ...extra });

describe("loadSettings", () => {
  it("defaults to PGlite under <work-path>/data and 127.0.0.1:3000", () => {
    const s = load("");
    expect(s.server).toMatchObject({
      httpAddr: "127.0.0.1",
      httpPort: 3000,
      rootUrl: "http://localhost:3000/",
      appDataPath: "/srv/kiln/data",
    });
    expect(s.database).toEqual({
      type: "pglite",
      path: "/srv/kiln/data/pglite",
      sharedBuffers: 16 * 1024 * 1024,
    });
    expect(s.repository).toMatchObject({
      root: "/srv/kiln/data/repositories",
      disableMirrors: false,
      maxCreationLimit: -1,
    });
    expect(s.api).toMatchObject({ defaultPagingNum: 30, maxResponseItems: 50 });
    expect(s.quota).toEqual({ enabled: true, enforce: false, defaultGroups: [], defaultTotal: -1 });
    expect(s.ui.reactions).toContain("heart");
  });

  it("reads every supported key", () => {
    const s = load(`
[server]
ROOT_URL = https://git.example.org
HTTP_ADDR = 0.0.0.0
HTTP_PORT = 8080
GRACEFUL_HAMMER_TIME = 1m30s
LFS_MAX_BATCH_SIZE = 200
LFS_LOCKS_PAGING_NUM = 25
LFS_MAX_LOCKS = 500
[database]
DB_TYPE = postgres
HOST = db.internal:5433
NAME = forge
USER = kiln
PASSWD = s3cr#t
SSL_MODE = require
[api]
DEFAULT_PAGING_NUM = 10
MAX_RESPONSE_ITEMS = 20
MAX_BODY_SIZE = 2MiB
[security]
INSTALL_LOCK = true
SECRET_KEY = sk
CREDENTIAL_CACHE_TTL = 500ms
[service]
ENABLE_BASIC_AUTHENTICATION = false
[repository]
DISABLE_MIRRORS = true
MAX_CREATION_LIMIT = 5
[ui]
REACTIONS = +1, heart
[attachment]
ENABLED = false
ALLOWED_TYPES = .png
MAX_SIZE = 4
MAX_FILES = 2
[quota]
ENABLED = false
ENFORCE = true
DEFAULT_GROUPS = small, tiny
[quota.default]
TOTAL = 2GiB
`);
    expect(s.server).toMatchObject({
      rootUrl: "https://git.example.org/",
      httpAddr: "0.0.0.0",
      httpPort: 8080,
      gracefulHammerTime: 90_000,
    });
    expect(s.database).toEqual({
      type: "postgres",
      url: "postgres://kiln:s3cr%23t@db.internal:5433/forge?sslmode=require",
      retries: 10,
      retryBackoff: 3_000,
    });
    expect(s.api).toMatchObject({ defaultPagingNum: 10, maxResponseItems: 20, maxBodySize: 2 * 1024 * 1024 });
    expect(s.security).toEqual({ installLock: true, secretKey: "sk", credentialCacheTtl: 500 });
    expect(s.lfs).toMatchObject({ maxBatchSize: 200, locksPagingNum: 25, maxLocks: 500 });
    expect(s.service.enableBasicAuthentication).toBe(false);
    expect(s.repository).toMatchObject({ disableMirrors: true, maxCreationLimit: 5 });
    expect(s.ui.reactions).toEqual(["+1", "heart"]);
    expect(s.attachment).toMatchObject({ enabled: false, allowedTypes: ".png", maxSize: 4, maxFiles: 2 });
    expect(s.quota).toEqual({
      enabled: false,
      enforce: true,
      defaultGroups: ["small", "tiny"],
      defaultTotal: 2147483648,
    });
  });

  it("reads [mirror] as Forgejo: intervals, ENABLED = false refusing new mirrors, a minimum of 1m", () => {
    expect(load("").mirror).toEqual({
      enabled: true,
      disableNewPull: false,
      disableNewPush: false,
      defaultInterval: 8 * 3_600_000,
      minInterval: 600_000,
    });
    expect(
      load("[mirror]\nDEFAULT_INTERVAL = 1h\nMIN_INTERVAL = 30m\nDISABLE_NEW_PUSH = true").mirror,
    ).toEqual({
      enabled: true,
      disableNewPull: false,
      disableNewPush: true,
      defaultInterval: 3_600_000,
      minInterval: 1_800_000,
    });
    expect(load("[mirror]\nENABLED = false").mirror).toMatchObject({
      disableNewPull: true,
      disableNewPush: true,
    });
    // Below 1m the minimum is 1m; a default under the minimum becomes 8h (or the minimum, when larger).
    expect(load("[mirror]\nMIN_INTERVAL = 10s\nDEFAULT_INTERVAL = 30s").mirror).toMatchObject({
      minInterval: 60_000,
      defaultInterval: 8 * 3_600_000,
    });
  });

  it("reads [repository.pull-request] closing and reopening keywords, Forgejo's by default", () => {
    expect(load("").repository).toMatchObject({
      closeKeywords: [
        "close",
        "closes",
        "closed",
        "fix",
        "fixes",
        "fixed",
        "resolve",
        "resolves",
        "resolved",
      ],
      reopenKeywords: ["reopen", "reopens", "reopened"],
    });
    const s = load("[repository.pull-request]\nCLOSE_KEYWORDS = schließt, behebt\nREOPEN_KEYWORDS =\n");
    expect(s.repository.closeKeywords).toEqual(["schließt", "behebt"]);
    expect(s.repository.reopenKeywords).toEqual([]);
  });

  it("prefers DATABASE_URL and --port", () => {
    const s = load("[server]\nHTTP_PORT = 1\n", { databaseUrl: "postgres://u@h/d", port: 4000 });
    expect(s.database).toEqual({
      type: "postgres",
      url: "postgres://u@h/d",
      retries: 10,
      retryBackoff: 3_000,
    });
    expect(s.server.httpPort).toBe(4000);
    expect(s.server.rootUrl).toBe("http://localhost:4000/");
  });

  it("reads how often and how patiently to retry an unreachable database at start-up", () => {
    const s = load("[database]\nDB_RETRIES = 2\nDB_RETRY_BACKOFF = 250ms\n", {
      databaseUrl: "postgres://u@h/d",
    });
    expect(s.database).toMatchObject({ retries: 2, retryBackoff: 250 });
  });

  it("stops on a bad value, naming the key", () => {
    expect(() => load("[server]\nHTTP_PORT = abc\n")).toThrow(ConfigError);
    expect(() => load("[server]\nHTTP_PORT = abc\n")).toThrow(
      'invalid value for [server] HTTP_PORT: "abc" is not a port number',
    );
    expect(() => load("[service]\nENABLE_BASIC_AUTHENTICATION = maybe\n")).toThrow(
      "[service] ENABLE_BASIC_AUTHENTICATION",
    );
    expect(() => load("[database]\nDB_TYPE = mysql\n")).toThrow("[database] DB_TYPE");
    expect(() => load("[api]\nMAX_RESPONSE_ITEMS = 0\n")).toThrow("[api] MAX_RESPONSE_ITEMS");
    expect(() => load("[repository]\nMAX_CREATION_LIMIT = -2\n")).toThrow("[repository] MAX_CREATION_LIMIT");
    expect(() => load("[server]\nROOT_URL = ftp://x/\n")).toThrow("[server] ROOT_URL");
    expect(() => load("[server]\nGRACEFUL_HAMMER_TIME = soon\n")).toThrow("[server] GRACEFUL_HAMMER_TIME");
    expect(() => load("[api]\nMAX_BODY_SIZE = -1\n")).toThrow("[api] MAX_BODY_SIZE");
    expect(() => load("[server]\nLFS_MAX_BATCH_SIZE = 0\n")).toThrow("[server] LFS_MAX_BATCH_SIZE");
  });

  it("ignores unknown keys and treats a garbage TOTAL as unlimited with a warning, as Forgejo", () => {
    const warnings: string[] = [];
    const s = load("[server]\nSOMETHING_ELSE = 1\n[nonsense]\nX = y\n[quota.default]\nTOTAL = lots\n", {
      warn: (w) => warnings.push(w),
    });
    expect(s.quota.defaultTotal).toBe(-1);
    expect(warnings[0]).toContain("TOTAL");
  });
});
