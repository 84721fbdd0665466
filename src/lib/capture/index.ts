export { type CaptureOptions, captureTrajectory, currentTrajectory } from "./capture-trajectory.js";
export { type CapturingFetchOptions, capturingFetch, type FetchFunction } from "./capturing-fetch.js";
