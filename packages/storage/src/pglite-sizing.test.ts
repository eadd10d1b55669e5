import { DEFAULT_PGLITE_SHARED_BUFFERS } from "@kiln/domain";
import { Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDialect } from "./dialect.js";

/** What PGlite reports for its buffer pool when opened from these settings. */
async function sharedBuffersOf(sharedBuffers?: number): Promise<string> {
  const db = new Kysely<unknown>({
    dialect: await createDialect({ type: "pglite", path: "memory://", sharedBuffers }),
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
});
