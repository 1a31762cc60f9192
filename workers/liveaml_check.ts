import type { Task } from 'graphile-worker';
import { JOBS } from '../src/db/jobs.js';
import { type LiveAmlDeps, runLiveAmlCheck } from '../src/liveaml/index.js';

/** graphile-worker task `liveaml_check`: the live AML risk check of one transaction of one tracked address. */
export function liveAmlCheckTask(deps: LiveAmlDeps): Task {
  return async (payload) => {
    const p = JOBS.liveaml_check.payload.parse(payload);
    await runLiveAmlCheck(deps, {
      trackedId: p.tracked_id,
      network: p.network,
      txHash: p.tx_hash,
      blockNumber: BigInt(p.block_number),
      blockHash: p.block_hash,
    });
  };
}
