import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { runLiveAmlCheck, type LiveAmlDeps } from '../src/aml/live-check.js';

const Payload = z.object({
  tracked_id: z.string().regex(/^\d{1,19}$/),
  network: z.string().regex(/^[a-z0-9]+$/),
  tx_hash: z.string().min(1).max(100),
  block_number: z.string().regex(/^\d{1,19}$/),
  block_hash: z.string().min(1).max(100),
});

/** graphile-worker task `liveaml_check`: the live AML risk check of one transaction of one tracked address. */
export function liveAmlCheckTask(deps: LiveAmlDeps): Task {
  return async (payload) => {
    const p = Payload.parse(payload);
    await runLiveAmlCheck(deps, {
      trackedId: p.tracked_id,
      network: p.network,
      txHash: p.tx_hash,
      blockNumber: BigInt(p.block_number),
      blockHash: p.block_hash,
    });
  };
}
