import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    passWithNoTests: true,
    // The pre-receive hook runs compiled JavaScript: build dist/ first when it is stale.
    globalSetup: ["./test/build-dist.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
