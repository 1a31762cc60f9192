import { afterAll, it } from 'vitest';
import { SKIP_MESSAGE, skipWithoutLitecoind } from '../helpers/litecoind.js';
import { ownPostgres } from './own-postgres.js';
import { startUtxoScenario } from './utxo-scenario.js';

let pg: Awaited<ReturnType<typeof ownPostgres>> | undefined;
let s: Awaited<ReturnType<typeof startUtxoScenario>> | undefined;
afterAll(async () => {
  await s?.close();
  await pg?.close();
});

it.skipIf(skipWithoutLitecoind)(
  `litecoin: Postgres restarted mid-run, 2-3 times, while payments flow and short reorgs happen: the roles ride it out in-process, nothing lost, nothing wrong${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  async () => {
    pg = await ownPostgres();
    s = await startUtxoScenario('utxo-postgres-restart', {
      confirmations: 3,
      file: 'utxo-postgres-restart',
      database: pg.database,
    });
    const { rng, roles } = s;
    // No supervisor: a role that exits fails the scenario (finish() checks that none did).
    roles.indexer.start();
    roles.worker.start();
    const traffic = s.traffic.run(rng.fork('traffic'), { reorgs: true });
    try {
      await s.working();
      await pg.restartAtRandom(rng);
    } finally {
      await traffic.stop();
    }
    await s.finish();
  },
  480_000,
);
