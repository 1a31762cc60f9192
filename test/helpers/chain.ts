import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Abi,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { inject } from 'vitest';

/**
 * A fresh funded account on the shared Hardhat node (or the node at `rpcUrl`: a test file's own),
 * so test files running side by side never share a nonce.
 */
export async function fundedWallet(ether = '100', rpcUrl = inject('rpcUrl')) {
  const transport = http(rpcUrl);
  const account = privateKeyToAccount(generatePrivateKey());
  const test = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
  await test.setBalance({ address: account.address, value: parseEther(ether) });
  const wallet = createWalletClient({ account, chain: hardhat, transport });
  // Receipts looked for every 50 ms: anvil's mixed mining may mine a transaction a moment later.
  // The block number never cached (viem keeps it for a polling interval by default): a test
  // reads the head right after mining, and anvil mines faster than 50 ms.
  const pub = createPublicClient({ chain: hardhat, transport, pollingInterval: 50, cacheTime: 0 });
  return {
    account,
    address: account.address,
    wallet,
    pub,
    test,
    /** `gas`: a limit of its own, where the node's estimate would fail (a call that reverts). */
    async send(to: Hex, value: bigint, gas?: bigint) {
      const hash = await wallet.sendTransaction({ to, value, gas });
      return pub.waitForTransactionReceipt({ hash });
    },
    async deploy(c: { abi: unknown[]; bytecode: Hex }) {
      const hash = await wallet.deployContract({ abi: c.abi as Abi, bytecode: c.bytecode });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      return receipt.contractAddress!;
    },
    async write(address: Hex, abi: unknown[], functionName: string, args: unknown[]) {
      const hash = await wallet.writeContract({
        address,
        abi: abi as Abi,
        functionName,
        args,
      } as never);
      return pub.waitForTransactionReceipt({ hash });
    },
  };
}

export function randomAddress(): Hex {
  return privateKeyToAccount(generatePrivateKey()).address;
}
