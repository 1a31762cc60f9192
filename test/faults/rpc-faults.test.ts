import { afterAll, it } from 'vitest';
import { sleep, startScenario, type Scenario } from './harness.js';
import { startFaultyRpcProxy, type FaultyRpcProxy } from './rpc-proxy.js';

let proxy: FaultyRpcProxy | undefined;
let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
  await proxy?.stop();
});

/** viem's HTTP timeout in src/chains/evm/client.ts is 15 s: a hang lasts longer. */
const HANG_MS = 16_000;

it('RPC errors and timeouts on 5% of calls: nothing lost, nothing wrong', async () => {
  s = await startScenario('rpc-faults', {
    confirmations: 3,
    file: 'rpc-faults',
    rpcUrl: async (chainUrl, rng) => {
      proxy = await startFaultyRpcProxy(chainUrl, rng, { rate: 0.05, hangMs: HANG_MS });
      return proxy.url;
    },
  });
  const { rng, roles } = s;
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    await sleep(rng.int(20_000, 30_000));
  } finally {
    await traffic.stop();
  }
  await s.finish();
  console.log(
    `[faults] rpc-faults: ${proxy!.stats.requests} RPC requests through the proxy, faults injected: ${JSON.stringify(proxy!.stats.faults)}`,
  );
}, 480_000);
