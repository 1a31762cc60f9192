import type { Task } from 'graphile-worker';
import { JOBS } from '../src/db/jobs.js';
import { type LiveAmlDeps, runLiveAmlReplay } from '../src/liveaml/index.js';

/** graphile-worker task `liveaml_replay`: a tracking's past transactions, checked in chain order. */
export function liveAmlReplayTask(deps: LiveAmlDeps): Task {
  return async (payload) => {
    const p = JOBS.liveaml_replay.payload.parse(payload);
    await runLiveAmlReplay(deps, p.tracked_id);
  };
}
