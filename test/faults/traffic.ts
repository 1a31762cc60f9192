import { encodeFunctionData, parseEther, type Abi, type Hex } from 'viem';
import { hardhat } from 'viem/chains';
import { inject } from 'vitest';
import type { OwnChain } from '../helpers/own-chain.js';
import { randomAddress } from '../helpers/chain.js';
import type { Rng } from './seed.js';

/**
 * Transactions flowing on a scenario's own chain, chosen by the scenario's PRNG: ETH to streamed
 * and unstreamed addresses, ERC-20 transfers, mints and approvals (so logs and token tables are
 * in play), several transactions in one block, and empty blocks. Nonces are counted here (and
 * re-read after a revert), so no call waits on the node's pending state.
 */
export class Traffic {
  private nonce = 0;
  private token: Hex | undefined;
  private readonly erc20 = inject('contracts').TestERC20;
  sent = 0;

  constructor(
    private readonly chain: OwnChain,
    private readonly streamed: readonly Hex[],
  ) {}

  /** Deploys the token and mints the wallet a balance to transfer from. */
  async setup(): Promise<void> {
    await this.resyncNonce();
    const hash = await this.chain.wallet.deployContract({
      abi: this.erc20.abi as Abi,
      bytecode: this.erc20.bytecode,
      account: this.chain.wallet.account!,
      chain: hardhat,
      nonce: this.nonce++,
    });
    this.token = (await this.chain.pub.waitForTransactionReceipt({ hash })).contractAddress!;
    await this.call('mint', [this.chain.wallet.account!.address, 10n ** 30n]);
  }

  /** The wallet's nonce as the node has it now (after an evm_revert it goes back). */
  async resyncNonce(): Promise<void> {
    this.nonce = await this.chain.pub.getTransactionCount({
      address: this.chain.wallet.account!.address,
      blockTag: 'pending',
    });
  }

  private async send(to: Hex, value: bigint, data?: Hex): Promise<Hex> {
    const hash = await this.chain.wallet.sendTransaction({
      account: this.chain.wallet.account!,
      chain: hardhat,
      to,
      value,
      data,
      nonce: this.nonce++,
      gas: data ? 120_000n : 21_000n,
    });
    this.sent++;
    return hash;
  }

  private call(functionName: 'mint' | 'transfer' | 'approve', args: unknown[]): Promise<Hex> {
    return this.send(
      this.token!,
      0n,
      encodeFunctionData({ abi: this.erc20.abi as Abi, functionName, args }),
    );
  }

  /** One transaction of a random kind (mined at once: the node automines). */
  private async one(rng: Rng): Promise<void> {
    const target = rng.chance(0.8) ? rng.pick(this.streamed) : randomAddress();
    const kind = rng.pick(['eth', 'eth', 'transfer', 'mint', 'approve'] as const);
    // At most 0.001 ETH: the wallet's 100 ETH last for any scenario's length (at up to 1 ETH a
    // transfer a slow run drained it after ~500 transactions and the scenario failed on funds).
    if (kind === 'eth')
      await this.send(target, BigInt(rng.int(1, 10 ** 6)) * parseEther('0.000000001'));
    else await this.call(kind, [target, BigInt(rng.int(1, 10 ** 9))]);
  }

  /** One step: a transaction, a block of several, or an empty block. */
  async step(rng: Rng): Promise<void> {
    const r = rng.next();
    if (r < 0.7) return this.one(rng);
    if (r < 0.9) {
      await this.chain.test.setAutomine(false);
      try {
        const n = rng.int(2, 4);
        for (let i = 0; i < n; i++) await this.one(rng);
        await this.chain.mine(1); // one block with all of them
      } finally {
        await this.chain.test.setAutomine(true);
      }
      return;
    }
    await this.chain.mine(1);
  }

  /** Steps in the background until `stop()`, `pauseMs` apart (drawn from the PRNG). */
  run(rng: Rng, pauseMs: [number, number] = [30, 250]): { stop(): Promise<void> } {
    return runSteps(() => this.step(rng), rng, pauseMs);
  }
}

/** Runs `step` in the background until `stop()`, `pauseMs` apart (drawn from `rng`). */
export function runSteps(
  step: () => Promise<void>,
  rng: Rng,
  pauseMs: [number, number],
): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      await step();
      await new Promise((r) => setTimeout(r, rng.int(pauseMs[0], pauseMs[1])));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
