import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "runtime/**/*.test.ts", "tests/**/*.test.ts"],
    // Each test runs the built kiln-run as a subprocess; a cold start takes a few hundred ms.
    testTimeout: 30_000,
  },
});
