import { afterAll, it } from 'vitest';
import { SKIP_MESSAGE, skipWithoutLitecoind } from '../helpers/litecoind.js';
import { killAtRandomPoints } from './harness.js';
import { startUtxoScenario } from './utxo-scenario.js';

let s: Awaited<ReturnType<typeof startUtxoScenario>> | undefined;
afterAll(async () => {
  await s?.close();
});

const KILLS = 12;

it.skipIf(skipWithoutLitecoind)(
  `litecoin: kill -9 of the indexer or the worker at ${KILLS} random points while payments flow and short reorgs happen, then restart: nothing lost, nothing wrong${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  async () => {
    s = await startUtxoScenario('utxo-kill-reorg', { confirmations: 3, file: 'utxo-kill-reorg' });
    const { rng, roles } = s;
    // Receivers that take a moment, so that some kills land while deliveries are in flight.
    const delays = rng.fork('receiver-delays');
    for (const r of s.receivers) r.delayMs = () => delays.int(0, 150);
    roles.indexer.start();
    roles.worker.start();
    const traffic = s.traffic.run(rng.fork('traffic'), { reorgs: true });
    try {
      await s.working();
      await killAtRandomPoints(rng, roles, s.receivers, KILLS);
    } finally {
      await traffic.stop();
    }
    console.log(
      `[faults] utxo-kill-reorg: ${s.traffic.sent} payments, ${s.traffic.reorgs} reorgs during the kills`,
    );
    await s.finish();
  },
  480_000,
);
