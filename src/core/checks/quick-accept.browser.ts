// Browser and edge build of `quick-accept.ts`: a page sends a few requests, not thousands, so
// it validates with zod alone and its bundle carries no second walk.
import type { quickAccepts as QuickAccepts } from "./quick-accept.js";

export const quickAccepts: typeof QuickAccepts = () => false;
