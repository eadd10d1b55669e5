import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    passWithNoTests: true,
    // Generous limits for a loaded 2-core machine; these are not performance assertions.
    testTimeout: 60_000,
    // Two files at a time on two cores: this is the longest suite in CI, and with vitest's default
    // (one worker there) it ran alone for its last 25 minutes with a core idle. Each file opens its
    // own PGlite and its own PostgreSQL schema, so files never share data.
    maxWorkers: 2,
    hookTimeout: 120_000,
  },
});
