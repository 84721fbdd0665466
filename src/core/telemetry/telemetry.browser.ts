// Browser and edge build of `telemetry.ts`: no spans, so no span code in a browser bundle.
import type { endSpanWithBody as EndSpanWithBody, traced as Traced } from "./telemetry.js";

export const traced: typeof Traced = (_spec, _origin, _options, _mode, send) => send(undefined);
export const endSpanWithBody: typeof EndSpanWithBody = (res) => res;
