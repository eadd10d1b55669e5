import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium (`.ci/run` installs the `chromium` package when it is missing). */
export const CHROMIUM = process.env.KILN_CHROMIUM ?? "/usr/bin/chromium";

/** Headless, and quiet: no sandbox (root in CI), no GPU, nothing fetched from the network. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where screenshots of failed steps are kept (gitignored). */
export const SCREENSHOTS = fileURLToPath(new URL("../../test-results/web/", import.meta.url));

/** Starts Chromium through Playwright. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/**
 * Runs one step of a scenario; when it throws, a full-page screenshot named after the step is
 * kept in {@link SCREENSHOTS} before the error goes on.
 */
export async function step<T>(page: Page, name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = `${SCREENSHOTS}${name.replace(/[^a-z0-9]+/gi, "-")}.png`;
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    throw new Error(`${name} failed (screenshot: ${file}): ${(err as Error).message}`, { cause: err });
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** An accessibility violation as axe-core reports it. */
export interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's policy, which
 * forbids any script but its own, need not be relaxed) and returns the violations of serious or
 * critical impact.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe
    .run(document, { resultTypes: ["violations"] })
    .then((result) => result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    })))`)) as Violation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Marks the visible focusable elements (links, buttons, inputs, selects, summaries) and counts them. */
const MARK_FOCUSABLE = `(() => {
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";
  let n = 0;
  for (const el of document.querySelectorAll(selector)) {
    const visible = el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
    if (!visible || el.disabled === true) continue;
    el.dataset.kbWanted = String(n++);
  }
  document.activeElement?.blur();
  window.scrollTo(0, 0);
  return n;
})()`;

/** Notes that the focused element was reached. */
const MARK_REACHED = `(() => {
  const el = document.activeElement;
  if (el?.dataset?.kbWanted !== undefined) el.dataset.kbReached = "1";
})()`;

/** The marked elements never reached, described. */
const UNREACHED = `[...document.querySelectorAll("[data-kb-wanted]:not([data-kb-reached])")].map(
  (el) => "<" + el.tagName.toLowerCase() + "> " + ((el.textContent || "").trim().slice(0, 40) || el.getAttribute("name") || ""),
)`;

/**
 * Presses Tab through the page and returns the focusable elements (links, buttons, inputs,
 * selects, summaries) that are visible but were never reached, described for a failure message.
 */
export async function unreachableByKeyboard(page: Page): Promise<string[]> {
  const count = (await page.evaluate(MARK_FOCUSABLE)) as number;
  for (let i = 0; i < count * 2 + 10; i++) {
    await page.keyboard.press("Tab");
    await page.evaluate(MARK_REACHED);
  }
  return (await page.evaluate(UNREACHED)) as string[];
}
