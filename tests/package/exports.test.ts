// The packed tarball's builds export the same runtime names as `src/index.ts` (whose list
// tests/exports.test.ts holds): a name lost or added by the bundler would show up here.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, inject, it } from "vitest";
import * as source from "../../src/index.js";

const app = inject("app");
const dist = join(app, "node_modules", "inferloop", "dist");
const names = (m: object) => Object.keys(m).sort();

it("ESM, CommonJS, the fetch build and the Bun build export exactly the source's names", async () => {
  const expected = names(source);
  const esm = (await import(pathToFileURL(join(dist, "index.js")).href)) as object;
  const browser = (await import(pathToFileURL(join(dist, "browser.js")).href)) as object;
  const bun = (await import(pathToFileURL(join(dist, "bun.js")).href)) as object;
  const cjs = createRequire(join(app, "package.json"))("inferloop") as object;
  expect(names(esm)).toEqual(expected);
  expect(names(browser)).toEqual(expected);
  expect(names(bun)).toEqual(expected);
  expect(names(cjs)).toEqual(expected);
});
