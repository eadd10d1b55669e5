import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    passWithNoTests: true,
    // Generous limits for a loaded 2-core machine; these are not performance assertions.
    testTimeout: 60_000,
    // Two files at a time even on two cores: an end-to-end file spends most of its time waiting on
    // the server and git processes it started, and one worker left the second core idle.
    maxWorkers: 2,
    hookTimeout: 120_000,
  },
});
