import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { type DevChainNode, startDevChain } from '../../src/devchain/devchain.js';
import type { Sql } from '../../src/db/index.js';
import { eventually } from './eventually.js';
import { freePort } from '../../support/ports.js';

/**
 * A dev chain node (Hardhat, or anvil with TOLLGATE_DEV_CHAIN_NODE=anvil or `node: 'anvil'`) of one test file's own, for tests that rewind or mine the chain (evm_revert on
 * the shared node would rewind every other file's). Interval mining is off: blocks come from
 * transactions (automine) and from `mine`. `wallet` is a fresh account holding 100 ETH.
 */
export async function startOwnChain(opts: { node?: DevChainNode } = {}) {
  const chain = await startDevChain(await freePort(), opts.node);
  const transport = http(chain.url);
  const test = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
  // Receipts looked for every 50 ms: anvil's mixed mining may mine a transaction a moment later.
  // The block number never cached (viem keeps it for a polling interval by default): a test
  // reads the head right after mining, and anvil mines faster than 50 ms.
  const pub = createPublicClient({ chain: hardhat, transport, pollingInterval: 50, cacheTime: 0 });
  await test.request({ method: 'evm_setIntervalMining', params: [0] } as never);
  // anvil's interval mining replaced automine; Hardhat kept it (a no-op there).
  await test.request({ method: 'evm_setAutomine', params: [true] } as never);
  const account = privateKeyToAccount(generatePrivateKey());
  await test.setBalance({ address: account.address, value: parseEther('100') });
  const wallet = createWalletClient({ account, chain: hardhat, transport });
  return {
    url: chain.url,
    test,
    pub,
    wallet,
    /** Sends `value` wei from `wallet` to `to` and waits until it is mined; its hash. */
    async send(to: Hex, value = 1n): Promise<Hex> {
      const hash = await wallet.sendTransaction({ account, chain: hardhat, to, value });
      await pub.waitForTransactionReceipt({ hash });
      return hash;
    },
    /** Real blocks, one by one: hardhat_mine with a count makes reserved blocks whose parentHash is zero. */
    async mine(blocks: number): Promise<void> {
      for (let i = 0; i < blocks; i++)
        await test.request({ method: 'evm_mine', params: [] } as never);
    },
    /**
     * A block a reorg leaves and comes back to, with the same hash: block A (a transfer of
     * `value` wei from `wallet` to `to`, with a fixed time 100 s after the head now, base fee and
     * signature), then `branch()` reorganises onto block B at the same height (empty, the same
     * time), then `back()` onto A again. `mine()` and `back()` give A's transaction and hash.
     */
    async returningBlock(to: Hex, value: bigint) {
      const at = (await pub.getBlock()).timestamp + 100n;
      const nonce = await pub.getTransactionCount({ address: account.address });
      const mineA = async (): Promise<{ tx: Hex; block: Hex }> => {
        await test.setNextBlockTimestamp({ timestamp: at });
        await test.setNextBlockBaseFeePerGas({ baseFeePerGas: 1_000_000_000n });
        const hash = await wallet.sendTransaction({
          account,
          chain: hardhat,
          to,
          value,
          nonce,
          gas: 21_000n,
          maxFeePerGas: 2_000_000_000n,
          maxPriorityFeePerGas: 1n,
        });
        const receipt = await pub.waitForTransactionReceipt({ hash });
        return { tx: hash, block: receipt.blockHash };
      };
      let beforeA: Hex | undefined;
      let beforeB: Hex | undefined;
      return {
        async mine() {
          beforeA = await test.snapshot();
          return mineA();
        },
        async branch() {
          await test.revert({ id: beforeA! });
          beforeB = await test.snapshot();
          await test.setNextBlockTimestamp({ timestamp: at });
          await test.request({ method: 'evm_mine', params: [] } as never);
        },
        async back() {
          await test.revert({ id: beforeB! });
          return mineA();
        },
      };
    },
    /** Waits until the database's eth cursor is the node's head block. */
    async indexedHead(sql: Sql): Promise<void> {
      const head = await pub.getBlock();
      await eventually(
        () => sql`select block_hash from indexer_cursors where network = 'eth'`,
        (r) => r[0]?.block_hash === head.hash,
        30_000,
      );
    },
    stop: () => chain.stop(),
  };
}

export type OwnChain = Awaited<ReturnType<typeof startOwnChain>>;
