// The SDK before the hostile-server work (commit 733c735), bundled like hostile-head.mjs.
import { Inferloop } from "../../.tmp/bench-baseline/index.js";
import { clientApi } from "./hostile-inferloop.mjs";

export const createContender = clientApi(Inferloop);
