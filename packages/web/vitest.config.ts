import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
    passWithNoTests: true,
    // Generous limits for a loaded 2-core machine; these are not performance assertions.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
