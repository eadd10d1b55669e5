import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUserWithToken,
  databaseEnv,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

const MIB = 1024 * 1024;
/** The large file: as large as the four concurrent downloads. */
const LARGE = 150 * MIB;

/** Resident memory (kB) of a process, now and at its peak, from /proc. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** Writes `size` pseudo-random bytes to `path` in 1 MiB pieces and returns their sha256. */
async function writeRandomFile(path: string, size: number): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += MIB) {
    const chunk = randomBytes(Math.min(MIB, size - written));
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return hash.digest("hex");
}

interface Download {
  status: number;
  size: number;
  sha256: string;
  length: string | null;
}

/** Downloads a URL and returns its byte count and sha256, never holding it whole. */
async function download(url: string, token: string): Promise<Download> {
  return (await pausedDownload(url, token, 0)).finish();
}

/**
 * Starts a download and reads its first `first` bytes (at least), then stops reading, the way a
 * slow client does; `finish` reads the rest and returns its byte count and sha256.
 */
async function pausedDownload(
  url: string,
  token: string,
  first: number,
): Promise<{ finish(): Promise<Download> }> {
  const res = await fetch(url, { headers: { Authorization: `token ${token}` } });
  const hash = createHash("sha256");
  let size = 0;
  const reader = res.body?.getReader();
  const readUntil = async (limit: number) => {
    while (reader && size < limit) {
      const { done, value } = await reader.read();
      if (done) return;
      hash.update(value);
      size += value.length;
    }
  };
  await readUntil(first);
  return {
    async finish() {
      await readUntil(Number.POSITIVE_INFINITY);
      return {
        status: res.status,
        size,
        sha256: hash.digest("hex"),
        length: res.headers.get("Content-Length"),
      };
    },
  };
}

/** The sha256 of what `git <args>` writes to stdout, never holding it whole. */
function gitOutputSha256(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "inherit"] });
    const hash = createHash("sha256");
    child.stdout.on("data", (chunk: Buffer) => hash.update(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(hash.digest("hex")) : reject(new Error(`git ${code}`)),
    );
  });
}

describe("reading repositories through the API (real git client, large files)", () => {
  const { env, dispose } = databaseEnv("pglite");
  const work = tempWorkPath();
  let server: ServerProcess;
  let token = "";
  let largeSha256 = "";
  /** The LFS object's content, and the zip `git archive` makes of main (LFS pointer as stored). */
  let lfsSha256 = "";
  let zipSha256 = "";
  const base = () => `${server.url}/api/v1/repos/owner/big`;

  beforeAll(async () => {
    server = await startServer(work, env);
    token = await createUserWithToken(server, work, env, "owner");
    expect(
      (await api(server.url, "POST", "/user/repos", { token, body: { name: "big", private: true } })).status,
    ).toBe(201);
    const dir = scratch();
    await gitOk(dir, ["init", "-q", "-b", "main"]);
    largeSha256 = await writeRandomFile(join(dir, "large.bin"), LARGE);
    writeFileSync(join(dir, "README.md"), "# big\n");
    await gitOk(dir, ["add", "."]);
    await gitOk(dir, ["commit", "-qm", "large file"]);
    for (let i = 1; i <= 4; i++) {
      writeFileSync(join(dir, "README.md"), `# big\n\nedit ${i}\n`);
      await gitOk(dir, ["commit", "-qam", `edit ${i}`]);
    }
    // The same size again as an LFS object, pushed by git-lfs: the sixth and last commit.
    await gitOk(dir, ["lfs", "install", "--local"]);
    await gitOk(dir, ["lfs", "track", "*.lfs"]);
    lfsSha256 = await writeRandomFile(join(dir, "video.lfs"), LARGE);
    await gitOk(dir, ["add", ".gitattributes", "video.lfs"]);
    await gitOk(dir, ["commit", "-qm", "LFS file"]);
    await gitOk(dir, ["remote", "add", "origin", cloneUrl(server.url, "owner", "big", "owner", token)]);
    await gitOk(dir, ["push", "-q", "origin", "main"]);
    // The zip as git makes it from the commits alone (a bare copy has no LFS filter configured).
    await gitOk(dir, ["clone", "-q", "--bare", ".", "bare.git"]);
    zipSha256 = await gitOutputSha256(join(dir, "bare.git"), [
      "archive",
      "--format=zip",
      "--prefix=big/",
      "main",
    ]);
  }, 600_000);

  /**
   * Four concurrent downloads of `path`: `slow` of them read 4 MiB in and then left unread for two
   * seconds (slow clients), then all read to the end: each one's status, size and sha256, and how much
   * the server's resident memory grew above what it was before them (its peak, from /proc) while
   * the clients did not read, and over the whole downloads. A server that streams with
   * backpressure holds a few buffers per download while its clients do not read; one that
   * buffers goes on reading the file into memory. Over the whole downloads, the garbage of the
   * streamed chunks adds to the peak until the collector runs, the more so when the server has just
   * given its freed memory back to the system (it does when the database goes quiet).
   */
  const fourAtOnce = async (path: string, slow = 4) => {
    const pid = server.process.pid ?? 0;
    // Forget earlier peaks (the push, other tests): the next peak is these downloads' alone.
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    const before = memory(pid);
    const started = await Promise.all(
      Array.from({ length: slow }, () => pausedDownload(`${base()}${path}`, token, 4 * MIB)),
    );
    // The window in which a server that does not wait for its clients would fill its memory.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const whilePaused = (memory(pid).peak - before.rss) * 1024;
    const downloads = await Promise.all([
      ...started.map((d) => d.finish()),
      ...Array.from({ length: 4 - slow }, () => download(`${base()}${path}`, token)),
    ]);
    return { downloads, whilePaused, added: (memory(pid).peak - before.rss) * 1024 };
  };

  /** Four downloads of 150 MiB hold less than one file's bytes, and almost nothing while unread. */
  const expectConstantMemory = ({ whilePaused, added }: { whilePaused: number; added: number }) => {
    expect(whilePaused).toBeLessThan(64 * MIB);
    expect(added).toBeLessThan(LARGE);
  };

  afterAll(async () => {
    server?.signal("SIGTERM");
    await server?.exited;
    await dispose();
  });

  it("streams a large raw file byte-exact, four downloads at once in constant memory", async () => {
    const { downloads, ...held } = await fourAtOnce("/raw/large.bin");
    for (const d of downloads) {
      expect(d.status).toBe(200);
      expect(d.length).toBe(String(LARGE));
      expect(d.size).toBe(LARGE);
      expect(d.sha256).toBe(largeSha256);
    }
    expectConstantMemory(held);
  }, 300_000);

  it("streams a large LFS object through /media byte-exact, four downloads at once in constant memory", async () => {
    const pointer = await download(`${base()}/raw/video.lfs`, token);
    expect(pointer.size).toBeLessThan(200);
    const { downloads, ...held } = await fourAtOnce("/media/video.lfs");
    for (const d of downloads) {
      expect(d.status).toBe(200);
      expect(d.length).toBe(String(LARGE));
      expect(d.size).toBe(LARGE);
      expect(d.sha256).toBe(lfsSha256);
    }
    expectConstantMemory(held);
  }, 300_000);

  it("streams the archive of a repository with a large file and an LFS pointer byte-exact, four at once in constant memory", async () => {
    // Two slow clients: the server makes as many archives at once as it has cores, and at least
    // two; the other downloads wait for a free one.
    const { downloads, ...held } = await fourAtOnce("/archive/main.zip", 2);
    for (const d of downloads) {
      expect(d.status).toBe(200);
      expect(d.size).toBeGreaterThan(LARGE);
      expect(d.sha256).toBe(zipSha256);
    }
    expectConstantMemory(held);
  }, 300_000);

  it("gives a blob above [api] DEFAULT_MAX_BLOB_SIZE without content, and a small one with it", async () => {
    const listing = await api(server.url, "GET", "/repos/owner/big/contents", { token });
    const large = listing.json.find((e: { name: string }) => e.name === "large.bin");
    expect(large).toMatchObject({ type: "file", size: LARGE, content: null, encoding: null });
    expect(large.last_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const blob = await api(server.url, "GET", `/repos/owner/big/git/blobs/${large.sha}`, { token });
    expect(blob.status).toBe(200);
    expect(blob.json).toMatchObject({ sha: large.sha, size: LARGE, content: null, encoding: null });
    const file = await api(server.url, "GET", "/repos/owner/big/contents/large.bin", { token });
    expect(file.json).toMatchObject({ size: LARGE, content: null, encoding: null });
    const readme = listing.json.find((e: { name: string }) => e.name === "README.md");
    const small = await api(server.url, "GET", `/repos/owner/big/git/blobs/${readme.sha}`, { token });
    expect(Buffer.from(small.json.content, "base64").toString()).toBe("# big\n\nedit 4\n");
  });

  it("sets X-Total-Count on every page of history, with and without a path", async () => {
    const first = await fetch(`${base()}/commits?limit=2&stat=false`, {
      headers: { Authorization: `token ${token}` },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Total-Count")).toBe("6");
    expect(((await first.json()) as unknown[]).length).toBe(2);
    const byPath = await fetch(`${base()}/commits?limit=1&path=large.bin&stat=false`, {
      headers: { Authorization: `token ${token}` },
    });
    expect(byPath.headers.get("X-Total-Count")).toBe("1");
    const readme = await fetch(`${base()}/commits?limit=2&page=2&path=README.md&stat=false`, {
      headers: { Authorization: `token ${token}` },
    });
    expect(readme.headers.get("X-Total-Count")).toBe("5");
    expect(((await readme.json()) as unknown[]).length).toBe(2);
  });
});
