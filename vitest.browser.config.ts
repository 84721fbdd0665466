import { defineConfig } from "vitest/config";

// `npm run test:browser`: the browser build of the SDK in Debian's Chromium (driven by
// playwright-core), streaming from the fake service of `inferloop/testing` on loopback.
// Needs `npm run build` (the script does it) and /usr/bin/chromium (or CHROMIUM_PATH).
export default defineConfig({
  test: {
    include: ["tests/browser/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
