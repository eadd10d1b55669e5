// The two object engines of @kiln/git side by side on cold reads (issue 11: "build two
// candidates … measure both, keep the faster"): isomorphic-git on its long-lived pack cache, and
// a long-lived `git cat-file --batch` per repository. Each round reads from a fresh copy of the
// repository, so nothing is cached before it starts. Hot reads come from the object cache in
// front of either engine and cost the same; this measures what a miss costs.
//   node bench/git-read/engines.mjs <bare repository> [--rounds 3]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  getBlob,
  getContents,
  listCommits,
  RepoStore,
  setObjectEngine,
} from "../../packages/git/dist/index.js";

/** The workloads: each reads objects no earlier workload of the round read. */
const WORKLOADS = [
  [
    "walk 20,000 commits (`commits?page=400&limit=50`)",
    (repo) => listCommits(repo, { page: 400, limit: 50 }),
  ],
  [
    "list 50 directories (trees and sizes)",
    async (repo) => {
      for (let d = 0; d < 50; d++) await getContents(repo, `dir${d}`);
    },
  ],
  [
    "read 2,000 blobs whole",
    async (repo) => {
      const shas = [];
      for (let d = 1; d < 50 && shas.length < 2_000; d++) {
        const dir = await getContents(repo, `dir${d}`);
        if (dir.kind === "dir") shas.push(...dir.entries.map((entry) => entry.sha));
      }
      for (const sha of shas.slice(0, 2_000)) await getBlob(repo, sha);
    },
  ],
];

export async function compareEngines(source, rounds = 3) {
  const root = mkdtempSync(join(tmpdir(), "kiln-bench-engines-"));
  const store = new RepoStore({ root });
  mkdirSync(join(root, "bench"));
  const times = new Map();
  try {
    let copy = 0;
    for (let round = 0; round < rounds; round++) {
      for (const engine of round % 2 === 0
        ? ["isomorphic-git", "cat-file"]
        : ["cat-file", "isomorphic-git"]) {
        const name = `copy${copy++}`;
        execFileSync("cp", ["-r", source, join(root, "bench", `${name}.git`)]);
        setObjectEngine(engine);
        const repo = await store.open("bench", name);
        for (const [label, run] of WORKLOADS) {
          const started = performance.now();
          await run(repo);
          const key = `${label}\u0000${engine}`;
          times.set(key, [...(times.get(key) ?? []), performance.now() - started]);
        }
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const median = (list) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(
    `\nobject engines on cold reads, median of ${rounds} rounds (each on a fresh copy of the repository)`,
  );
  console.log("| workload | isomorphic-git ms | cat-file ms | cat-file / isomorphic-git |");
  console.log("|---|---:|---:|---:|");
  for (const [label] of WORKLOADS) {
    const iso = median(times.get(`${label}\u0000isomorphic-git`));
    const cat = median(times.get(`${label}\u0000cat-file`));
    console.log(`| ${label} | ${iso.toFixed(0)} | ${cat.toFixed(0)} | ${(cat / iso).toFixed(2)} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf("--rounds");
  await compareEngines(process.argv[2], i === -1 ? 3 : Number(process.argv[i + 1]));
}
