/**
 * Sends a transaction on the local dev chain so that a stream fires:
 *   npm run demo:tx -- <to-address> [amount-in-eth] [rpc-url]
 * to the dev chain on TOLLGATE_DEV_CHAIN_PORT (8545 by default) unless an RPC URL is given.
 * From Hardhat's first test account (its well-known private key: dev chain only).
 */
import { createWalletClient, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';

const HARDHAT_ACCOUNT_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const [to, amount = '0.5'] = process.argv.slice(2);
if (!to || !/^0x[0-9a-fA-F]{40}$/.test(to)) {
  process.stderr.write('usage: npm run demo:tx -- <to-address> [amount-in-eth] [rpc-url]\n');
  process.exit(2);
}
const rpc = process.argv[4] ?? `http://127.0.0.1:${process.env.TOLLGATE_DEV_CHAIN_PORT ?? 8545}`;
const wallet = createWalletClient({
  account: privateKeyToAccount(HARDHAT_ACCOUNT_0),
  chain: hardhat,
  transport: http(rpc),
});
const hash = await wallet.sendTransaction({ to: to as `0x${string}`, value: parseEther(amount) });
process.stdout.write(`sent ${amount} ETH to ${to}\ntransaction ${hash}\n`);
