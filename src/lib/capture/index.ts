export { capturingFetch, type CapturingFetchOptions, type FetchFunction } from "./capturing-fetch.js";
export { captureTrajectory, currentTrajectory, type CaptureOptions } from "./capture-trajectory.js";
