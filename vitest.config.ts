import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // The browser and packed-package checks need a build and Chromium: `npm run test:browser`,
    // `npm run test:package` (with the command's and the examples' tests, which run the packed
    // tarball) and `npm run test:runtimes` run them (and `.ci/run` runs everything).
    exclude: [
      "tests/browser/**",
      "tests/package/**",
      "tests/cli/**",
      "tests/examples/**",
      "tests/runtimes/**",
      "node_modules/**",
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
