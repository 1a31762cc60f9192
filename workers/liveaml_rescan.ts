import type { Task } from 'graphile-worker';
import type { LiveAmlDeps } from '../src/aml/live-check.js';
import { runLiveAmlRescan } from '../src/aml/rescan.js';

/** graphile-worker task `liveaml_rescan`: after a label import, tracked addresses it made risky raise events. */
export function liveAmlRescanTask(deps: LiveAmlDeps): Task {
  return async () => {
    await runLiveAmlRescan(deps);
  };
}
