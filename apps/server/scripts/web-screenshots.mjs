#!/usr/bin/env node
// Takes the screenshots of docs/web.md: starts `kiln web` on a fresh work path, seeds a few
// accounts and repositories through the CLI and the API, and photographs pages in Debian's
// Chromium. Needs `pnpm build` first.
//   node apps/server/scripts/web-screenshots.mjs [output dir, default docs/images]
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const KILN = fileURLToPath(new URL("../bin/kiln.js", import.meta.url));
const OUT = process.argv[2] ?? fileURLToPath(new URL("../../../docs/images/", import.meta.url));
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const work = mkdtempSync(join(tmpdir(), "kiln-shots-"));
const cli = (...args) => execFileSync(process.execPath, [KILN, ...args, "-w", work], { stdio: "pipe" });
for (const name of ["ada", "grace"]) {
  cli(
    "admin",
    "user",
    "create",
    "--username",
    name,
    "--password",
    "password1",
    "--email",
    `${name}@example.com`,
    "--must-change-password=false",
  );
}
const server = spawn(process.execPath, [KILN, "web", "-w", work, "--port", String(port)], {
  stdio: "ignore",
});
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${url}/api/v1/version`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 2400) throw new Error("kiln web did not start");
  await new Promise((r) => setTimeout(r, 50));
}
try {
  const auth = (user) => `Basic ${Buffer.from(`${user}:password1`).toString("base64")}`;
  const call = async (user, method, path, body) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { Authorization: auth(user), "Content-Type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
    return res.json().catch(() => undefined);
  };
  await call("ada", "PATCH", "/user/settings", {
    full_name: "Ada Lovelace",
    description: "Notes on the engine",
    location: "London",
  });
  for (const [name, description, isPrivate] of [
    ["analytical-engine", "Programs for the Analytical Engine", false],
    ["bernoulli", "Computing Bernoulli numbers, note G", false],
    ["letters", "Correspondence", true],
  ]) {
    await call("ada", "POST", "/user/repos", { name, description, private: isPrivate, auto_init: true });
  }
  await call("ada", "PUT", "/repos/ada/analytical-engine/topics", { topics: ["mathematics", "history"] });
  await call("ada", "POST", "/orgs", {
    username: "difference",
    full_name: "Difference Engine Society",
    description: "Cogs and tables",
    visibility: "public",
  });
  await call("ada", "POST", "/orgs/difference/repos", {
    name: "tables",
    description: "Logarithm tables, checked",
  });
  await call("grace", "POST", "/user/repos", {
    name: "compiler",
    description: "A-0 and its successors",
    auto_init: true,
  });
  await call("grace", "PUT", "/user/following/ada");
  await call("grace", "PUT", "/user/starred/ada/analytical-engine");
  await call("grace", "POST", "/repos/ada/analytical-engine/issues", {
    title: "The loop in note G",
    body: "Should the **loop** in note G run backwards?",
  });
  await call("ada", "POST", "/repos/ada/analytical-engine/issues/1/comments", {
    body: "No: the variables are read in order, see `V7`.",
  });
  const program = [
    "// Note G: the Bernoulli numbers, one operation per line.",
    "export function bernoulli(n: number): number[] {",
    "  const b: number[] = [1];",
    "  for (let m = 1; m <= n; m++) {",
    "    let sum = 0;",
    "    for (let k = 0; k < m; k++) sum += binomial(m + 1, k) * b[k];",
    "    b.push(-sum / (m + 1));",
    "  }",
    "  return b;",
    "}",
    "",
    "function binomial(n: number, k: number): number {",
    "  let r = 1;",
    "  for (let i = 1; i <= k; i++) r = (r * (n - i + 1)) / i;",
    "  return r;",
    "}",
  ].join("\n");
  const added = await call("ada", "POST", "/repos/ada/analytical-engine/contents/note-g.ts", {
    content: Buffer.from(`${program}\n`).toString("base64"),
    message: "Note G as a program",
  });

  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
  const shoot = async ({ name, path, width = 1024, height = 640, dark = false, signedIn = false }) => {
    const context = await browser.newContext({
      viewport: { width, height },
      colorScheme: dark ? "dark" : "light",
    });
    const page = await context.newPage();
    if (signedIn) {
      await page.goto(`${url}/user/login`);
      await page.fill("#user_name", "ada");
      await page.fill("#password", "password1");
      await page.click("form.form button[type=submit]");
      await page.waitForURL(`${url}/`);
    }
    await page.goto(url + path);
    await page.screenshot({ path: join(OUT, `web-${name}.png`) });
    await context.close();
  };
  await shoot({ name: "explore", path: "/explore/repos" });
  await shoot({ name: "dashboard", path: "/", signedIn: true });
  await shoot({ name: "user", path: "/ada", signedIn: true });
  await shoot({ name: "org-dark", path: "/difference", dark: true });
  await shoot({ name: "repo-narrow", path: "/ada/analytical-engine", width: 360, height: 640, dark: true });
  await shoot({ name: "sign-in", path: "/user/login", width: 480, height: 520 });
  await shoot({ name: "repo-home", path: "/ada/analytical-engine", height: 800 });
  await shoot({ name: "file", path: "/ada/analytical-engine/src/branch/main/note-g.ts#L4-L7", height: 720 });
  await shoot({ name: "commit", path: `/ada/analytical-engine/commit/${added.commit.sha}`, height: 720 });
  await shoot({ name: "issue-dark", path: "/ada/analytical-engine/issues/1", dark: true, height: 720 });
  await browser.close();
  console.log(`screenshots in ${OUT}`);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("close", r));
  rmSync(work, { recursive: true, force: true });
}
