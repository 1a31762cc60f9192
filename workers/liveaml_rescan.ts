import type { Task } from 'graphile-worker';
import { type LiveAmlDeps, runLiveAmlRescan } from '../src/liveaml/index.js';

/** graphile-worker task `liveaml_rescan`: after a label import, tracked addresses it made risky raise events. */
export function liveAmlRescanTask(deps: LiveAmlDeps): Task {
  return async () => {
    await runLiveAmlRescan(deps);
  };
}
