// This branch and the commit before it, bundled the same way (esbuild, by bench/hostile.mjs),
// so the plain-loopback comparison measures the code, not the bundler.
import { Inferloop } from "../../.tmp/bench-head/index.js";
import { clientApi } from "./hostile-inferloop.mjs";

export const createContender = clientApi(Inferloop);
