import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The EVM indexer suite again, on a second node implementation: Foundry's anvil (the
 * @foundry-rs/anvil devDependency) instead of Hardhat, for the shared node and every test's own
 * chain (src/devchain/devchain.ts reads TOLLGATE_DEV_CHAIN_NODE; the variable is set here, before
 * the global setup starts the node, and the test workers inherit it). Part of `npm test`.
 */
process.env.TOLLGATE_DEV_CHAIN_NODE = 'anvil';

export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/evm-*.test.ts',
      'test/indexer-*.test.ts',
      'test/streams-e2e.test.ts',
      'test/wallet-transactions.test.ts',
      'test/wallet-nfts.test.ts',
      'test/liveaml-worker.test.ts',
      'test/liveaml-worker-reorg.test.ts',
      'test/aml-onchain-lists.test.ts',
      'test/aml-value-flows.test.ts',
      'test/restart.test.ts',
    ],
  },
});
