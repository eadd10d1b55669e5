// Upload and download throughput of release assets through `kiln web`, against a plain `cp` of
// the same bytes, and the server's peak resident memory during a 1 GiB upload (issue 15).
//
//   node bench/uploads/run.mjs [--size MiB] [--runs N] [--big MiB] [--postgres]
//
// Each run uploads a file of --size MiB (default 256) as a raw release asset body streamed from
// disk, then downloads it from its browser_download_url; the reference is `cp` of the same file
// followed by an fsync of the copy (the blob store flushes each upload before it records it).
// Medians of --runs (default 3). The memory figure is the server's VmHWM after clear_refs, minus
// its resident size before, for one upload of --big MiB (default 1024).
import { execFileSync } from "node:child_process";
import {
  closeSync,
  createReadStream,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import { startKiln } from "../api/servers.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SIZE = arg("--size", 256) * 2 ** 20;
const RUNS = arg("--runs", 3);
const BIG = arg("--big", 1024) * 2 ** 20;
const POSTGRES = process.argv.includes("--postgres");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mibps = (bytes, ms) => bytes / 2 ** 20 / (ms / 1000);

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** A file of `size` bytes that is not all alike (64 KiB blocks stamped with their offset). */
function makeFile(path, size) {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(2 ** 20);
  for (let i = 0; i < block.length; i++) block[i] = (i * 131) & 0xff;
  for (let off = 0; off < size; off += block.length) {
    block.writeUInt32BE(off >>> 0, 0);
    writeFileSync(fd, block.subarray(0, Math.min(block.length, size - off)));
  }
  fsyncSync(fd);
  closeSync(fd);
}

function timeCp(src, dst) {
  rmSync(dst, { force: true });
  const start = performance.now();
  execFileSync("cp", [src, dst]);
  const fd = openSync(dst, "r+");
  fsyncSync(fd);
  closeSync(fd);
  return performance.now() - start;
}

async function upload(kiln, assets, file, name) {
  const start = performance.now();
  const res = await fetch(`${kiln.url}/api/v1${assets}?name=${name}`, {
    method: "POST",
    headers: { Authorization: `token ${kiln.token}`, "Content-Type": "application/octet-stream" },
    body: createReadStream(file),
    duplex: "half",
  });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(json)}`);
  return { ms: performance.now() - start, asset: json };
}

async function download(kiln, asset) {
  const start = performance.now();
  const res = await fetch(asset.browser_download_url.replace(/^https?:\/\/[^/]+\//, `${kiln.url}/`), {
    headers: { Authorization: `token ${kiln.token}` },
  });
  let size = 0;
  for await (const chunk of res.body) size += chunk.byteLength;
  if (size !== asset.size) throw new Error(`downloaded ${size} bytes of ${asset.size}`);
  return performance.now() - start;
}

async function bench(label, postgres) {
  const kiln = await startKiln({ postgres, logLevel: "warn" });
  const dir = mkdtempSync(join(tmpdir(), "kiln-bench-uploads-"));
  try {
    const call = async (method, path, body) => {
      const res = await fetch(`${kiln.url}/api/v1${path}`, {
        method,
        headers: { Authorization: `token ${kiln.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
      return res.json();
    };
    await call("POST", "/user/repos", { name: "uploads", auto_init: true });
    const release = await call("POST", "/repos/bench/uploads/releases", { tag_name: "v1" });
    const assets = `/repos/bench/uploads/releases/${release.id}/assets`;
    const src = join(dir, "source.bin");
    makeFile(src, SIZE);
    // Made before the runs: writing it takes longer than the server keeps an idle connection,
    // and a request on a connection the server has closed fails ('other side closed').
    const big = join(dir, "big.bin");
    makeFile(big, BIG);
    const cp = [];
    const up = [];
    const down = [];
    for (let i = 0; i < RUNS; i++) {
      cp.push(timeCp(src, join(dir, "copy.bin")));
      // A different name each run; the same bytes are stored once (content-addressed).
      const { ms, asset } = await upload(kiln, assets, src, `run-${i}.bin`);
      up.push(ms);
      down.push(await download(kiln, asset));
    }
    rmSync(src);
    writeFileSync(`/proc/${kiln.pid}/clear_refs`, "5");
    const before = memory(kiln.pid);
    const { asset } = await upload(kiln, assets, big, "big.bin");
    const upPeak = memory(kiln.pid).peak - before.rss;
    writeFileSync(`/proc/${kiln.pid}/clear_refs`, "5");
    const beforeDown = memory(kiln.pid);
    await download(kiln, asset);
    const downPeak = memory(kiln.pid).peak - beforeDown.rss;
    const c = median(cp);
    const u = median(up);
    const d = median(down);
    console.log(`\n${label}: ${SIZE / 2 ** 20} MiB, median of ${RUNS}`);
    console.log("| what | ms | MiB/s | ratio to cp |");
    console.log("|---|---|---|---|");
    console.log(`| cp + fsync | ${c.toFixed(0)} | ${mibps(SIZE, c).toFixed(0)} | 1.00 |`);
    console.log(
      `| upload (raw body) | ${u.toFixed(0)} | ${mibps(SIZE, u).toFixed(0)} | ${(u / c).toFixed(2)} |`,
    );
    console.log(`| download | ${d.toFixed(0)} | ${mibps(SIZE, d).toFixed(0)} | ${(d / c).toFixed(2)} |`);
    console.log(
      `server peak resident growth: ${(upPeak / 2 ** 20).toFixed(1)} MiB during a ${BIG / 2 ** 20} MiB upload, ${(downPeak / 2 ** 20).toFixed(1)} MiB during its download`,
    );
  } finally {
    await kiln.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await bench("PGlite", undefined);
if (POSTGRES) {
  const schema = `kiln_bench_uploads_${process.pid}`;
  try {
    await bench("PostgreSQL", { url: testPostgresUrl(), schema });
  } finally {
    await dropPostgresSchema(schema);
  }
}
