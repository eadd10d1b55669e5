#!/usr/bin/env node
// Evaluations per second of the pure quota engine (@kiln/quota) for a list of 10 groups of 10
// rules each, against the naive reference evaluator that the property test checks it with
// (packages/quota/test/naive-reference.mjs), both measured in this run. Prints the ratio.
//
//   pnpm --filter @kiln/quota build && node bench/quota-engine/run.mjs [--seconds 1]
import { performance } from "node:perf_hooks";
import { explainQuota, isWithinQuota, SUBJECT_ALIASES, SUBJECTS } from "../../packages/quota/dist/index.js";
import { naiveWithinQuota } from "../../packages/quota/test/naive-reference.mjs";

const secondsFlag = process.argv.indexOf("--seconds");
const SECONDS = secondsFlag === -1 ? 1 : Number(process.argv[secondsFlag + 1]);
const GROUPS = 10;
const RULES = 10;
const SPELLINGS = [...SUBJECTS, ...Object.keys(SUBJECT_ALIASES)];

/** mulberry32: a small seeded generator, so every run measures the same workload. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const pick = (items) => items[Math.floor(next() * items.length)];
const MiB = 1024 * 1024;

const usage = {
  reposPublic: 700 * MiB,
  reposPrivate: 300 * MiB,
  lfs: 2000 * MiB,
  issueAttachments: 5 * MiB,
  releaseAttachments: 120 * MiB,
  artifacts: 40 * MiB,
  packages: 900 * MiB,
};

/**
 * `mode` "all-fail": the last rule of every group is `size:all` with a limit below the total, so
 * no group stands and every rule of every group is evaluated (the worst case).
 * `mode` "mixed": random 1-3 subjects and random limits (0.5 GiB to 8 GiB, some unlimited).
 */
function groupList(mode) {
  return Array.from({ length: GROUPS }, (_, g) => ({
    name: `group-${g}`,
    rules: Array.from({ length: RULES }, (_, r) => {
      if (mode === "all-fail" && r === RULES - 1)
        return { name: `r${g}-${r}`, limit: 1000 * MiB, subjects: ["size:all"] };
      const subjects = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(SPELLINGS));
      const limit = next() < 0.1 ? -1 : Math.floor((0.5 + next() * 7.5) * 1024 * MiB);
      return { name: `r${g}-${r}`, limit, subjects };
    }),
  }));
}

/** Runs `check` over the checked subjects for about SECONDS seconds; evaluations per second. */
function measure(check, groups) {
  let sink = 0;
  const round = () => {
    for (const subject of SPELLINGS) if (check(groups, usage, subject)) sink++;
  };
  for (let i = 0; i < 200; i++) round(); // warm-up
  let rounds = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    for (let i = 0; i < 50; i++) round();
    rounds += 50;
    elapsed = performance.now() - start;
  }
  if (sink < 0) throw new Error("unreachable");
  return (rounds * SPELLINGS.length) / (elapsed / 1000);
}

const engines = {
  "isWithinQuota (engine)": isWithinQuota,
  "explainQuota (engine)": (groups, used, subject) => explainQuota(groups, used, subject).withinQuota,
  "naive reference": naiveWithinQuota,
};

const format = (n) => Math.round(n).toLocaleString("en-US").padStart(12);
console.log(
  `quota engine: ${GROUPS} groups x ${RULES} rules, ${SPELLINGS.length} checked subjects, ${SECONDS}s each`,
);
for (const mode of ["all-fail", "mixed"]) {
  const groups = groupList(mode);
  // The engines must agree before their speed means anything.
  for (const subject of SPELLINGS) {
    const answers = Object.values(engines).map((check) => check(groups, usage, subject));
    if (new Set(answers).size !== 1) throw new Error(`engines disagree on ${subject}: ${answers.join(", ")}`);
  }
  const rates = Object.fromEntries(
    Object.entries(engines).map(([name, check]) => [name, measure(check, groups)]),
  );
  const reference = rates["naive reference"];
  console.log(
    `\n${mode === "all-fail" ? "worst case: no group stands, every rule evaluated" : "mixed: random subjects and limits"}`,
  );
  for (const [name, rate] of Object.entries(rates)) {
    console.log(
      `  ${name.padEnd(24)} ${format(rate)} evaluations/s   ratio to naive ${(rate / reference).toFixed(1)}x`,
    );
  }
}
