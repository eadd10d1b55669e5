// Clone and push throughput of Kiln's smart-HTTP transport (bare handlers, with a push policy,
// and the whole `kiln web` server) against `git http-backend`, over the same 10,000-commit
// repository, in one run. Needs `pnpm build` first. Prints medians and
// the ratio Kiln / http-backend (time; below 1 means Kiln is faster).
//   node bench/git-transport/run.mjs [rounds]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { COMMITS, sourceRepository } from "./build-fixture.mjs";
import { startHttpBackendServer, startKilnServer, startKilnWeb } from "./servers.mjs";

const git = await import("../../packages/git/dist/index.js");
const rounds = Number(process.argv[2] ?? 5);
const work = mkdtempSync(join(tmpdir(), "kiln-bench-run-"));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: work, GIT_TERMINAL_PROMPT: "0" };

// Asynchronous on purpose: the servers live in this process and must keep serving.
function run(args, cwd = work) {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`git ${args.join(" ")}: ${stderr}`)),
    );
  });
}

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const source = await sourceRepository();
  const store = new git.RepoStore({ root: join(work, "repos") });
  await store.create("bench", "source");
  await run(["push", "--quiet", "--mirror", join(work, "repos/bench/source.git")], source);
  const packBytes = await store.size("bench", "source");

  const policy = {
    defaultBranch: "main",
    branchRules: [
      {
        ruleName: "main",
        canPush: true,
        canForcePush: false,
        canDelete: false,
        requireSignedCommits: false,
        protectedFilePatterns: "*.lock",
        unprotectedFilePatterns: "",
        canChangeProtectedFiles: false,
      },
    ],
  };
  const kiln = await startKilnServer(git, store);
  const kilnPolicy = await startKilnServer(git, store, { pushPolicy: policy });
  const backend = await startHttpBackendServer(store.root);
  const onStore = {
    create: (name) => store.create("bench", name),
    remove: (name) => store.delete("bench", name),
  };
  const web = await startKilnWeb();
  await web.create("source");
  await run(["push", "--quiet", `${web.url}/bench/source.git`, "main"], source);
  const servers = {
    "http-backend": { ...backend, ...onStore },
    kiln: { ...kiln, ...onStore },
    "kiln+policy": { ...kilnPolicy, ...onStore },
    "kiln web": web,
  };
  const times = { clone: {}, push: {} };
  for (const name of Object.keys(servers)) {
    times.clone[name] = [];
    times.push[name] = [];
  }

  let counter = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [name, server] of Object.entries(servers)) {
      const target = join(work, `clone-${++counter}.git`);
      times.clone[name].push(
        await timed(() => run(["clone", "--bare", "--quiet", `${server.url}/bench/source.git`, target])),
      );
      rmSync(target, { recursive: true, force: true });

      const repoName = `push-${counter}`;
      await server.create(repoName);
      times.push[name].push(
        await timed(() => run(["push", "--quiet", `${server.url}/bench/${repoName}.git`, "main"], source)),
      );
      await server.remove(repoName);
    }
  }
  await Promise.all(Object.values(servers).map((server) => server.close()));

  const mb = packBytes / 1024 / 1024;
  console.log(`repository: ${COMMITS} commits, ${mb.toFixed(1)} MiB on disk; ${rounds} rounds; median times`);
  for (const op of ["clone", "push"]) {
    const reference = median(times[op]["http-backend"]);
    for (const name of Object.keys(servers)) {
      const ms = median(times[op][name]);
      const ratio = ms / reference;
      console.log(
        `${op.padEnd(5)} ${name.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms  ${(mb / (ms / 1000)).toFixed(1).padStart(6)} MiB/s  ratio ${ratio.toFixed(2)}`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
