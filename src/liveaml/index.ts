/**
 * Live AML's face: trackings ("call my AML webhook when this address does something risky"),
 * the checks the indexer enqueues per block and the worker runs, the rescan after a label
 * import, and the events listed by the API. Nothing outside this folder imports a file in it but
 * this one.
 */
export { runLiveAmlCheck, type LiveAmlDeps } from './check.js';
export { enqueueLiveAmlChecks } from './enqueue-checks.js';
export { listEvents, orphanEventsAbove } from './events.js';
export { runLiveAmlRescan } from './rescan.js';
export { listTracking, startTracking, stopTracking } from './tracking.js';
export { runLiveAmlReplay, startTrackingWithReplay } from './replay.js';
