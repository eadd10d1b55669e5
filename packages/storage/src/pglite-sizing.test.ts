import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PGLITE_SHARED_BUFFERS } from "@kiln/domain";
import { Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDialect } from "./dialect.js";

/** What PGlite reports for its buffer pool when opened from these settings. */
async function sharedBuffersOf(sharedBuffers?: number, path = "memory://"): Promise<string> {
  const db = new Kysely<unknown>({
    dialect: await createDialect({ type: "pglite", path, sharedBuffers }),
  });
  try {
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db);
    return rows[0]?.shared_buffers ?? "";
  } finally {
    await db.destroy();
  }
}

describe("PGlite sizing", () => {
  it("starts with the small buffer pool by default, not PostgreSQL's 128MB", async () => {
    expect(DEFAULT_PGLITE_SHARED_BUFFERS).toBe(16 * 1024 * 1024);
    expect(await sharedBuffersOf(undefined)).toBe("16MB");
  });

  it("uses the configured shared_buffers", async () => {
    expect(await sharedBuffersOf(48 * 1024 * 1024)).toBe("48MB");
  });

  it("creates a data directory on disk at first open and opens it again with the configured size", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "kiln-pglite-sizing-")), "pglite");
    try {
      expect(await sharedBuffersOf(32 * 1024 * 1024, dir)).toBe("32MB");
      expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
      expect(await sharedBuffersOf(undefined, dir)).toBe("16MB");
    } finally {
      rmSync(join(dir, ".."), { recursive: true, force: true });
    }
  });
});
