import { defineConfig } from "vitest/config";

// `npm run test:package`: checks the packed tarball as a user gets it (lint, install, import,
// require, types, browser bundle size, the `inferloop` command, the examples in a user's project).
// Needs a fresh `npm run build` (the script does it).
export default defineConfig({
  test: {
    include: ["tests/package/**/*.test.ts", "tests/cli/**/*.test.ts", "tests/examples/**/*.test.ts"],
    globalSetup: ["tests/package/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
