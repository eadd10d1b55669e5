import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HostError } from "./errors.js";
import { NO_PERMISSIONS, Permissions, parseHostList } from "./permissions.js";

const root = await mkdtemp(join(tmpdir(), "kiln-permissions-"));
await mkdir(join(root, "app", "lib"), { recursive: true });
await mkdir(join(root, "data"), { recursive: true });
await symlink(join(root, "data"), join(root, "app", "data-link"));
afterAll(() => rm(root, { recursive: true, force: true }));

const denied = (check: () => void) => {
  try {
    check();
  } catch (error) {
    return error instanceof HostError && error.kind === "PermissionDenied"
      ? error.message
      : `other: ${error}`;
  }
  return "allowed";
};

describe("Permissions", () => {
  const app = join(root, "app");

  it("reads inside the entry folder only, by path and by real path", () => {
    const none = new Permissions(NO_PERMISSIONS, app, app);
    expect(denied(() => none.checkRead(join(app, "lib", "a.ts")))).toBe("allowed");
    expect(denied(() => none.checkRead(join(app, "missing", "b.ts")))).toBe("allowed");
    expect(denied(() => none.checkRead(join(root, "data", "x.ts")))).toBe(
      `Requires read access to "${join(root, "data", "x.ts")}", run again with the --allow-read flag`,
    );
    expect(denied(() => none.checkRead(join(app, "data-link", "x.ts")))).toMatch(/^Requires read access/);
    expect(denied(() => none.checkRead(`${app}-sibling/x.ts`))).toMatch(/^Requires read access/);
    expect(denied(() => none.checkRead("/etc/passwd"))).toMatch(/^Requires read access/);
  });

  it("widens reads with --allow-read, bare or with paths relative to the working directory", () => {
    const all = new Permissions({ ...NO_PERMISSIONS, allowRead: "all" }, app, app);
    expect(denied(() => all.checkRead("/etc/passwd"))).toBe("allowed");
    const some = new Permissions({ ...NO_PERMISSIONS, allowRead: ["../data"] }, app, app);
    expect(denied(() => some.checkRead(join(root, "data", "x.ts")))).toBe("allowed");
    expect(denied(() => some.checkRead(join(app, "data-link", "x.ts")))).toBe("allowed");
    expect(denied(() => some.checkRead("/etc/passwd"))).toMatch(/^Requires read access/);
  });

  it("matches hosts with and without ports, and *. subdomains", () => {
    const list = new Permissions(
      { ...NO_PERMISSIONS, allowNet: ["example.com", "127.0.0.1:8080", "*.deno.land", "[::1]:9"] },
      app,
      app,
    );
    const net = (url: string) => denied(() => list.checkNet(new URL(url)));
    expect(net("https://example.com/a")).toBe("allowed");
    expect(net("http://example.com:81/a")).toBe("allowed");
    expect(net("http://EXAMPLE.com/a")).toBe("allowed");
    expect(net("http://example.com.evil/a")).toBe(
      'Requires net access to "example.com.evil:80", run again with the --allow-net flag',
    );
    expect(net("http://127.0.0.1:8080/")).toBe("allowed");
    expect(net("http://127.0.0.1:8081/")).toMatch(/^Requires net access to "127\.0\.0\.1:8081"/);
    expect(net("https://x.deno.land/")).toBe("allowed");
    expect(net("https://deno.land/")).toMatch(/^Requires net access/);
    expect(net("https://evildeno.land/")).toMatch(/^Requires net access/);
    expect(net("http://[::1]:9/")).toBe("allowed");
    expect(denied(() => list.checkImport(new URL("https://example.com/m.ts")))).toBe("allowed");
    const importsOnly = new Permissions({ ...NO_PERMISSIONS, allowImport: "all" }, app, app);
    expect(denied(() => importsOnly.checkImport(new URL("https://a.test/m.ts")))).toBe("allowed");
    expect(denied(() => importsOnly.checkNet(new URL("https://a.test/")))).toMatch(/^Requires net access/);
  });

  it("parses host lists and refuses malformed entries", () => {
    expect(parseHostList("a.com, b.com:1,")).toEqual(["a.com", "b.com:1"]);
    expect(() => parseHostList("a.com:x")).toThrow(TypeError);
    for (const bad of ["a b", "a.com/x", "http://a.com", "a.com:123456", "[zz]"])
      expect(() => parseHostList(bad)).toThrow(TypeError);
  });
});
