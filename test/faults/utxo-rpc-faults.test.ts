import { afterAll, it } from 'vitest';
import { SKIP_MESSAGE, skipWithoutLitecoind } from '../helpers/litecoind.js';
import { sleep } from './harness.js';
import { startFaultyRpcProxy, type FaultyRpcProxy } from './rpc-proxy.js';
import { startUtxoScenario } from './utxo-scenario.js';

let proxy: FaultyRpcProxy | undefined;
let s: Awaited<ReturnType<typeof startUtxoScenario>> | undefined;
afterAll(async () => {
  await s?.close();
  await proxy?.stop();
});

/** The Bitcoin-family client's timeout in src/chains/utxo/client.ts is 30 s: a hang lasts longer. */
const HANG_MS = 31_000;

it.skipIf(skipWithoutLitecoind)(
  `litecoin: RPC errors and timeouts on 3% of calls while payments flow and short reorgs happen: nothing lost, nothing wrong${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  async () => {
    s = await startUtxoScenario('utxo-rpc-faults', {
      confirmations: 3,
      file: 'utxo-rpc-faults',
      rpcUrl: async (nodeUrl, rng) => {
        proxy = await startFaultyRpcProxy(nodeUrl, rng, { rate: 0.03, hangMs: HANG_MS });
        return proxy.url;
      },
    });
    const { rng, roles } = s;
    roles.indexer.start();
    roles.worker.start();
    const traffic = s.traffic.run(rng.fork('traffic'), { reorgs: true });
    try {
      await sleep(rng.int(20_000, 30_000));
    } finally {
      await traffic.stop();
    }
    await s.finish();
    console.log(
      `[faults] utxo-rpc-faults: ${proxy!.stats.requests} RPC requests through the proxy, faults injected: ${JSON.stringify(proxy!.stats.faults)}`,
    );
  },
  480_000,
);
