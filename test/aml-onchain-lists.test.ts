import { type Abi, encodeAbiParameters, type Hex, keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkInfo } from '../src/config/networks.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { compileSolidity } from './helpers/contracts.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { Receiver } from './helpers/receiver.js';

/**
 * Sanctions and blacklists from the chain itself: contracts that emit the events of the
 * Chainalysis sanctions oracle, Tether's USDT and Circle's USDC, placed (hardhat_setCode) at the
 * addresses config/networks.json ships for eth, on a Hardhat node of this file's own (a reorg
 * must not rewind other files' chain). The events are written here from the contracts' public
 * interfaces, not from Tollgate's decoder.
 */

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract SanctionsOracle {
  event SanctionedAddressesAdded(address[] addrs);
  event SanctionedAddressesRemoved(address[] addrs);
  function addToSanctionsList(address[] calldata a) external { emit SanctionedAddressesAdded(a); }
  function removeFromSanctionsList(address[] calldata a) external { emit SanctionedAddressesRemoved(a); }
  /** Any log at all: a payload that is not the event's. */
  function raw(bytes32 topic, bytes calldata data) external {
    bytes memory d = data;
    assembly { log1(add(d, 32), mload(d), topic) }
  }
}
contract TetherToken {
  event AddedBlackList(address _user);
  event RemovedBlackList(address _user);
  event Transfer(address indexed from, address indexed to, uint256 value);
  function addBlackList(address u) external { emit AddedBlackList(u); }
  function removeBlackList(address u) external { emit RemovedBlackList(u); }
  function transfer(address to, uint256 v) external { emit Transfer(msg.sender, to, v); }
}
contract FiatToken {
  event Blacklisted(address indexed _account);
  event UnBlacklisted(address indexed _account);
  function blacklist(address a) external { emit Blacklisted(a); }
  function unBlacklist(address a) external { emit UnBlacklisted(a); }
}`;

const listAddress = (kind: string) =>
  networkInfo('eth')!.label_lists!.find((l) => l.kind === kind)!.address as Hex;
const ORACLE = listAddress('chainalysis_sanctions_oracle');
const USDT = listAddress('tether_blacklist');
const USDC = listAddress('circle_blacklist');

let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
let apikey: string;
let abis: Record<string, Abi>;
const tracked = privateKeyToAccount(generatePrivateKey()).address;
const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

/** Calls `fn` of the list contract at `to`; returns the mined transaction's hash. */
async function send(to: Hex, contract: string, fn: string, args: unknown[]): Promise<Hex> {
  const hash = await chain.wallet.writeContract({
    address: to,
    abi: abis[contract]!,
    functionName: fn,
    args,
    chain: hardhat,
    account: chain.wallet.account,
  });
  await chain.pub.waitForTransactionReceipt({ hash });
  return hash;
}

async function tags(address: string): Promise<Record<string, boolean>> {
  const r = await call(app.baseUrl, 'GET', `/v2/analyze/aml?network=eth&address=${address}`, {
    headers: { apikey },
  });
  expect(r.json.code).toBe(0);
  return r.json.data.tags;
}

const labelsOf = (address: string) =>
  db.sql<{ category: string; source: string; name: string }[]>`
    select category, source, name from labels where address = ${address.toLowerCase()} order by source`;

beforeAll(async () => {
  chain = await startOwnChain();
  const compiled = compileSolidity(SOURCE);
  abis = Object.fromEntries(Object.entries(compiled).map(([n, c]) => [n, c.abi as Abi]));
  // Each contract deployed once, its runtime code then placed at the shipped list address.
  for (const [name, at] of [
    ['SanctionsOracle', ORACLE],
    ['TetherToken', USDT],
    ['FiatToken', USDC],
  ] as const) {
    const hash = await chain.wallet.deployContract({
      abi: compiled[name]!.abi as Abi,
      bytecode: compiled[name]!.bytecode,
      chain: hardhat,
      account: chain.wallet.account,
    });
    const { contractAddress } = await chain.pub.waitForTransactionReceipt({ hash });
    const code = await chain.pub.getCode({ address: contractAddress! });
    await chain.test.setCode({ address: at, bytecode: code! });
  }
  db = await freshDatabase();
  receiver = await new Receiver().start();
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_ETH: chain.url,
    // Hardhat calls every block final, and these blocks are reverted: the depth limit alone.
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_CONFIRMATIONS_ETH: '2',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  });
  apikey = (await createApiKey(db.sql, 'onchain-lists')).apikey;
  const created = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey },
    body: { address: tracked, webhook: receiver.url },
  });
  expect(created.json.code).toBe(0);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
  await chain?.stop();
});

describe('sanctions and blacklists from the indexed blocks', () => {
  it('the sanctions oracle: added → sanctioned, named after its tx, with a live AML webhook; removed → not', async () => {
    expect((await tags(tracked)).sanctioned).toBe(false);
    const other = fresh();
    const hash = await send(ORACLE, 'SanctionsOracle', 'addToSanctionsList', [[tracked, other]]);
    await chain.indexedHead(db.sql);
    expect(await labelsOf(tracked)).toEqual([
      {
        category: 'sanctioned',
        source: 'onchain:chainalysis_sanctions_oracle',
        name: expect.stringContaining(`Chainalysis sanctions oracle: tx ${hash}`),
      },
    ]);
    expect((await tags(tracked)).sanctioned).toBe(true);
    expect((await tags(other)).sanctioned).toBe(true);
    // detail=true names the on-chain event as the label's source.
    const explained = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=eth&address=${tracked}&detail=true`,
      { headers: { apikey } },
    );
    expect(explained.json.data.explanation.tags.sanctioned).toEqual({
      level: 'base',
      hops: 0,
      sources: [
        {
          source: 'onchain:chainalysis_sanctions_oracle',
          name: expect.stringContaining(`tx ${hash}`),
        },
      ],
    });
    // The tracked address became sanctioned: its live AML webhook follows, with the tag.
    await receiver.waitFor(() =>
      receiver.received.some(
        (r) =>
          r.json?.address?.toLowerCase() === tracked.toLowerCase() &&
          r.json?.hash_tags?.sanctioned === true,
      ),
    );

    await send(ORACLE, 'SanctionsOracle', 'removeFromSanctionsList', [[tracked]]);
    await chain.indexedHead(db.sql);
    expect(await labelsOf(tracked)).toEqual([]);
    expect((await tags(tracked)).sanctioned).toBe(false);
    expect((await tags(other)).sanctioned).toBe(true);
  });

  it("Tether's and Circle's blacklists: blacklisted_accounts, each list its own label", async () => {
    const who = fresh();
    await send(USDT, 'TetherToken', 'addBlackList', [who]);
    await send(USDC, 'FiatToken', 'blacklist', [who]);
    // Another event of the token contract is no list event.
    await send(USDT, 'TetherToken', 'transfer', [fresh(), 5n]);
    await chain.indexedHead(db.sql);
    expect((await labelsOf(who)).map((l) => l.source)).toEqual([
      'onchain:circle_blacklist',
      'onchain:tether_blacklist',
    ]);
    expect((await tags(who)).blacklisted_accounts).toBe(true);
    await send(USDT, 'TetherToken', 'removeBlackList', [who]);
    await chain.indexedHead(db.sql);
    expect((await tags(who)).blacklisted_accounts).toBe(true); // still on Circle's
    await send(USDC, 'FiatToken', 'unBlacklist', [who]);
    await chain.indexedHead(db.sql);
    expect((await tags(who)).blacklisted_accounts).toBe(false);
    expect(await labelsOf(who)).toEqual([]);
  });

  it('a listing reorged away never happened', async () => {
    const who = fresh();
    await chain.indexedHead(db.sql);
    const snapshot = await chain.test.snapshot();
    await send(ORACLE, 'SanctionsOracle', 'addToSanctionsList', [[who]]);
    await chain.indexedHead(db.sql);
    expect((await tags(who)).sanctioned).toBe(true);
    await chain.test.revert({ id: snapshot });
    await chain.mine(3);
    await chain.indexedHead(db.sql);
    expect((await tags(who)).sanctioned).toBe(false);
    expect(await labelsOf(who)).toEqual([]);
    expect(
      await db.sql`select 1 from onchain_list_events where address = ${who.toLowerCase()}`,
    ).toHaveLength(0);
  });

  it('a list event whose payload does not decode is logged, counted and skipped; the block is indexed', async () => {
    const before = await db.sql<
      { n: string }[]
    >`select list_events_skipped as n from indexer_cursors where network = 'eth'`;
    const topic = keccak256(toHex('SanctionedAddressesAdded(address[])'));
    // An array offset that points past the end of the data.
    const bad = encodeAbiParameters([{ type: 'uint256' }], [4096n]);
    const hash = await send(ORACLE, 'SanctionsOracle', 'raw', [topic, bad]);
    await chain.indexedHead(db.sql);
    expect(
      await db.sql`select 1 from evm_transactions where network = 'eth' and hash = ${hash}`,
    ).toHaveLength(1);
    const [after] = await db.sql<
      { n: string }[]
    >`select list_events_skipped as n from indexer_cursors where network = 'eth'`;
    expect(Number(after!.n)).toBe(Number(before[0]!.n) + 1);
    const metrics = await call(app.baseUrl, 'GET', '/metrics');
    expect(metrics.text).toMatch(/tollgate_onchain_list_events_skipped_total\{network="eth"\} 1/);
  });
});
