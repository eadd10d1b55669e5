import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    passWithNoTests: true,
    // Some tests load the compiled package in another process: build dist/ first when it is stale.
    globalSetup: ["./test/build-dist.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
