import { defineConfig } from "vitest/config";

// `npm run test:runtimes`: the packed tarball on Bun, Deno and workerd (tests/runtimes/). Needs
// a fresh `npm run build` and the runtimes in .tmp/runtimes (the script does both).
export default defineConfig({
  test: {
    include: ["tests/runtimes/**/*.test.ts"],
    globalSetup: ["tests/package/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
