import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, seriousViolations, step, unreachableByKeyboard } from "./browser/chromium.js";
import { api, createUser, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

/**
 * The web interface in a real browser: Debian's Chromium driven by Playwright against a real
 * `kiln web`. Each page of the scenario is checked with axe-core (no serious or critical
 * violation), tabbed through (the keyboard reaches every link and control), in light and dark,
 * at 360 px wide, and with no console error (a CSP violation or a missing asset would be one).
 */
describe("the web interface in Chromium", () => {
  const work = tempWorkPath();
  let server: ServerProcess;
  let browser: Browser;
  let alice: { token: string };
  /** The commit that added notes.txt to alice/glazes (private). */
  let notesCommit = "";

  beforeAll(async () => {
    server = await startServer(work);
    alice = await createUser(server, work, "alice");
    const bob = await createUser(server, work, "bob");
    const call = (token: string, method: string, path: string, body?: unknown) =>
      api(server.url, method, path, { token, ...(body !== undefined ? { body } : {}) });
    await call(alice.token, "POST", "/user/repos", {
      name: "kiln-notes",
      description: "Notes on firing",
      auto_init: true,
    });
    await call(alice.token, "POST", "/user/repos", { name: "glazes", private: true, auto_init: true });
    // In the private repository: a five-line file, an issue (#1) with a comment, and a pull
    // request (#2) from a branch that adds a recipe.
    const lines = Buffer.from("one\ntwo\nthree\nfour\nfive\n").toString("base64");
    const notes = await call(alice.token, "POST", "/repos/alice/glazes/contents/notes.txt", {
      content: lines,
      message: "Add firing notes",
    });
    notesCommit = notes.json.commit.sha;
    await call(alice.token, "POST", "/repos/alice/glazes/issues", { title: "Crawling glaze" });
    await call(alice.token, "POST", "/repos/alice/glazes/issues/1/comments", { body: "Try **less** clay." });
    await call(alice.token, "POST", "/repos/alice/glazes/contents/celadon.md", {
      content: Buffer.from("# Celadon\n\nIron oxide 1%\n").toString("base64"),
      message: "Add the celadon recipe",
      new_branch: "celadon",
    });
    await call(alice.token, "POST", "/repos/alice/glazes/pulls", {
      head: "celadon",
      base: "main",
      title: "Celadon recipe",
    });
    await call(alice.token, "POST", "/orgs", {
      username: "pottery",
      full_name: "The Pottery",
      visibility: "public",
    });
    await call(alice.token, "POST", "/orgs/pottery/repos", { name: "wheel", description: "Wheel throwing" });
    await call(bob.token, "PUT", "/user/following/alice");
    await call(bob.token, "PUT", "/user/starred/alice/kiln-notes");
    await call(bob.token, "POST", "/repos/alice/kiln-notes/issues", { title: "Cone 6 schedule?" });
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    server?.signal("SIGTERM");
    await server?.exited;
  });

  /** A page that records console errors (CSP violations, failed assets) and uncaught exceptions. */
  async function newPage(
    options: { width?: number; dark?: boolean } = {},
  ): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: options.width ?? 1280, height: 800 },
      colorScheme: options.dark ? "dark" : "light",
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    return { page, errors };
  }

  /** Everything checked on every page of the scenario. */
  async function checkPage(page: Page, errors: string[], name: string): Promise<void> {
    await step(page, `${name}: accessibility`, async () => {
      expect(await seriousViolations(page)).toEqual([]);
    });
    await step(page, `${name}: keyboard`, async () => {
      expect(await unreachableByKeyboard(page)).toEqual([]);
    });
    expect(errors).toEqual([]);
  }

  async function signIn(page: Page): Promise<void> {
    await page.goto("/user/login");
    await page.getByLabel("Username or email address").fill("alice");
    await page.getByLabel("Password").fill("password1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.url}/`);
  }

  it("signs in, explores, opens a user and an organization, reads notifications, and signs out", async () => {
    const { page, errors } = await newPage();
    await step(page, "home signed out", async () => {
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Welcome to Kiln" }).isVisible()).resolves.toBe(true);
      expect(await page.content()).not.toContain("glazes");
    });
    await checkPage(page, errors, "home signed out");

    await step(page, "sign-in page", async () => {
      await page.goto("/user/login");
    });
    await checkPage(page, errors, "sign-in page");
    await step(page, "sign in", () => signIn(page));
    await step(page, "dashboard", async () => {
      expect(await page.getByRole("heading", { name: "Activity" }).isVisible()).toBe(true);
      expect(await page.locator(".column-side").textContent()).toContain("glazes");
    });
    await checkPage(page, errors, "dashboard");

    for (const [path, text] of [
      ["/explore/repos", "kiln-notes"],
      ["/explore/users", "bob"],
      ["/explore/organizations", "pottery"],
    ] as const) {
      await step(page, `explore ${path}`, async () => {
        await page.goto(path);
        expect(await page.locator("main").textContent()).toContain(text);
      });
      await checkPage(page, errors, `explore ${path}`);
    }
    await step(page, "explore search", async () => {
      await page.goto("/explore/repos");
      await page.locator("#list-q").fill("wheel");
      await page.locator("#list-q").press("Enter");
      await page.waitForURL(/q=wheel/);
      const names = await page.locator(".list-item-title strong").allTextContents();
      expect(names).toEqual(["wheel"]);
    });

    await step(page, "user page", async () => {
      await page.goto("/alice");
      expect(await page.locator("main").textContent()).toContain("kiln-notes");
      await page.getByRole("link", { name: /Followers/ }).click();
      await page.waitForURL(/tab=followers/);
      expect(await page.locator(".list").textContent()).toContain("bob");
    });
    await checkPage(page, errors, "user page");

    await step(page, "organization page", async () => {
      await page.goto("/pottery");
      expect(await page.locator("main").textContent()).toContain("wheel");
      await page.getByRole("link", { name: /Teams/ }).click();
      await page.waitForURL(/\/org\/pottery\/teams/);
      expect(await page.locator(".list").textContent()).toContain("Owners");
    });
    await checkPage(page, errors, "organization teams");

    await step(page, "notifications", async () => {
      await page.getByRole("link", { name: "Notifications" }).click();
      await page.waitForURL(/\/notifications/);
      expect(await page.locator("main").textContent()).toContain("Cone 6 schedule?");
    });
    await checkPage(page, errors, "notifications");

    await step(page, "repository with copy button", async () => {
      await page.goto("/alice/glazes");
      // The copy button exists only when the script runs (it needs the clipboard API).
      expect(await page.locator("button[data-copy]").isVisible()).toBe(true);
      expect(await page.locator("nav[aria-label='Repository']").textContent()).toContain("Issues");
    });
    await checkPage(page, errors, "repository");

    await step(page, "code pages: a file, its source, the ref selector and a line anchor", async () => {
      await page.goto("/alice/glazes/src/branch/main/README.md");
      expect(await page.locator(".file-markup h1").textContent()).toContain("glazes");
      await page.locator(".ref-selector summary").click();
      expect(await page.locator(".ref-menu").textContent()).toContain("main");
      await page.keyboard.press("Escape");
      await page.goto("/alice/glazes/src/branch/main/README.md?display=source#L1");
      expect(await page.locator("tr#L1.line-selected").count()).toBe(1);
    });
    await checkPage(page, errors, "code file");

    await step(page, "a line range", async () => {
      await page.goto("/alice/glazes/src/branch/main/notes.txt#L2-L4");
      expect(await page.locator("tr.line-selected").count()).toBe(3);
      expect(await page.locator("tr#L3.line-selected").textContent()).toContain("three");
    });
    await checkPage(page, errors, "line range");

    await step(page, "a commit", async () => {
      await page.goto(`/alice/glazes/commit/${notesCommit}`);
      expect(await page.locator("main").textContent()).toContain("Add firing notes");
      expect(await page.locator(".diff-file-name").allTextContents()).toEqual([
        expect.stringContaining("notes.txt"),
      ]);
    });
    await checkPage(page, errors, "commit");

    await step(page, "an issue", async () => {
      await page.goto("/alice/glazes/issues/1");
      expect(await page.locator(".issue-title").textContent()).toContain("Crawling glaze");
      expect(await page.locator("main strong", { hasText: "less" }).count()).toBe(1);
    });
    await checkPage(page, errors, "issue");

    await step(page, "a pull request's files", async () => {
      await page.goto("/alice/glazes/pulls/2");
      await page.getByRole("link", { name: /Files changed/ }).click();
      await page.waitForURL(/\/pulls\/2\/files$/);
      expect(await page.locator(".diff-file-name").allTextContents()).toEqual([
        expect.stringContaining("celadon.md"),
      ]);
      expect(await page.locator("main").textContent()).toContain("Iron oxide 1%");
    });
    await checkPage(page, errors, "pull request files");

    await step(page, "sign out through the account menu", async () => {
      await page.locator("header details.menu summary").click();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${server.url}/`);
      expect(await page.getByRole("link", { name: "Sign in" }).isVisible()).toBe(true);
      await page.goto("/alice/glazes");
      expect(await page.locator(".error-code").textContent()).toBe("404");
    });
    await page.context().close();
  });

  it("opens the account menu with the keyboard and reaches its items", async () => {
    const { page, errors } = await newPage();
    await signIn(page);
    await step(page, "menu by keyboard", async () => {
      await page.locator("details.menu summary").focus();
      await page.keyboard.press("Enter");
      expect(await page.locator("details.menu").getAttribute("open")).not.toBeNull();
      expect(await unreachableByKeyboard(page)).toEqual([]);
      await page.keyboard.press("Escape");
      expect(await page.locator("details.menu").getAttribute("open")).toBeNull();
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("works without JavaScript: search, pages and sign-in", async () => {
    const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await step(page, "no script", async () => {
      await page.goto("/explore/repos?q=notes");
      expect(await page.locator(".list-item-title strong").allTextContents()).toEqual(["kiln-notes"]);
      expect(await page.locator("button[data-copy]").count()).toBe(0);
      await signIn(page);
      await page.goto("/alice/glazes");
      expect(await page.locator("button[data-copy]").isVisible()).toBe(false);
      expect(await page.locator("#clone-url").inputValue()).toContain("/alice/glazes.git");
    });
    await context.close();
  });

  it("fits 360 px and passes axe in dark mode", async () => {
    const { page, errors } = await newPage({ width: 360, dark: true });
    await signIn(page);
    for (const path of [
      "/",
      "/explore/repos",
      "/alice",
      "/pottery",
      "/alice/kiln-notes",
      "/alice/kiln-notes/src/branch/main/README.md?display=source",
      "/alice/glazes/issues/1",
      "/alice/glazes/pulls/2/files",
      "/user/login?x=1",
    ]) {
      await step(page, `narrow dark ${path}`, async () => {
        await page.goto(path);
        // Nothing reaches past the right edge (the page would scroll sideways).
        const wide = await page.evaluate(`[...document.querySelectorAll("body *")]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((el) => el.tagName.toLowerCase() + "." + el.className + " " + Math.round(el.getBoundingClientRect().right))`);
        expect(wide).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
