// Type declarations are bundled by rollup-plugin-dts rather than tsup: tsup's own dts step
// needs TypeScript's JS compiler API, which TypeScript 7 no longer ships.
import { dts } from "rollup-plugin-dts";

const entries = { index: "src/index.ts", testing: "src/testing/index.ts" };

export default Object.entries(entries).flatMap(([name, input]) =>
  ["d.ts", "d.cts"].map((ext) => ({
    input,
    output: { file: `dist/${name}.${ext}`, format: "es" },
    plugins: [dts({ tsconfig: "tsconfig.build.json" })],
    external: [/^node:/, "undici", "zod", "eventsource-parser", "msw"],
  })),
);
