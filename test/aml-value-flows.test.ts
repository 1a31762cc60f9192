import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet } from './helpers/chain.js';
import { compileSolidity } from './helpers/contracts.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { Receiver } from './helpers/receiver.js';
import { edgeCount, graphOf, trackLiveAml } from './helpers/aml-graph.js';

/**
 * The counterparty graph behind AML exposure and live AML is made of value flows: native coin
 * that moved (value above 0, not reverted) and token transfers. A call that moved no coin does
 * not link its caller with the contract it called, so a token contract is not a hub through which
 * everyone who sends the token is exposed to every sanctioned address that ever sent it. A chain
 * of this file's own (its last test reorganises it), a real appliance and Postgres.
 */

let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let aml: Receiver;
let streams: Receiver;
let apikey: string;

/** A funded account on this file's chain. */
const account = () => fundedWallet('10', chain.url);

async function analyze(address: string): Promise<Record<string, boolean>> {
  const res = await call(app.baseUrl, 'GET', `/v2/analyze/aml?address=${address}&network=eth`, {
    headers: { apikey },
  });
  expect(res.json.code).toBe(0);
  return res.json.data.tags;
}

const edge = (a: string, b: string) => edgeCount(db.sql, a, b);

/** Tracks `address` for live AML, with a stream so that its transactions are seen indexed. */
const track = (address: string) => trackLiveAml(app.baseUrl, apikey, address, aml.url, streams.url);

/** Waits until the tracked address's transaction is indexed and its live AML check has run. */
async function checked(hash: string): Promise<void> {
  await streams.waitFor((all) => all.some((r) => r.json?.tx?.hash === hash));
  await eventually(
    () =>
      db.sql`select 1 from graphile_worker.jobs where key like 'aml:%' and key like ${`%:${hash}:%`}`,
    (rows) => rows.length === 0,
  );
}

const graph = () => graphOf(db.sql);

let sanctioned: Awaited<ReturnType<typeof account>>;
let token: Hex;
const { TestERC20 } = inject('contracts');

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  aml = await new Receiver().start();
  streams = await new Receiver().start();
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_CONFIRMATIONS_ETH: '8',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  });
  apikey = (await createApiKey(db.sql, 'value-flows')).apikey;
  sanctioned = await account();
  await db.sql`insert into labels (network, address, category, source) values ('evm', ${sanctioned.address.toLowerCase()}, 'sanctioned', 'test')`;
  const minter = await account();
  token = await minter.deploy(TestERC20);
  await minter.write(token, TestERC20.abi, 'mint', [sanctioned.address, 1_000_000n]);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await aml?.stop();
  await streams?.stop();
  await db?.drop();
  await chain?.stop();
});

describe('the counterparty graph of value flows', () => {
  it('does not expose a token sender through the token contract a sanctioned address called', async () => {
    // The sanctioned address sends the token: its counterparty is the recipient, not the contract.
    const paid = privateKeyToAccount(generatePrivateKey()).address;
    await sanctioned.write(token, TestERC20.abi, 'transfer', [paid, 10n]);

    const sender = await account();
    const minter = await account();
    await minter.write(token, TestERC20.abi, 'mint', [sender.address, 1_000n]);
    await track(sender.address);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const sent = await sender.write(token, TestERC20.abi, 'transfer', [recipient, 5n]);
    await checked(sent.transactionHash);

    // No live AML alert for a clean transfer, and no exposure through the contract.
    expect(aml.received.filter((r) => r.json?.hash === sent.transactionHash)).toEqual([]);
    const tags = await analyze(sender.address);
    expect(Object.keys(tags).filter((t) => tags[t])).toEqual(['new_wallet']);
    expect(await edge(sender.address, token)).toBeUndefined();
    expect(await edge(sanctioned.address, token)).toBeUndefined();
    // The flows themselves link: the token's recipients on both sides.
    expect(await edge(sender.address, recipient)).toBe('1');
    expect(await edge(paid, sanctioned.address)).toBe('1');
    expect((await analyze(paid)).direct_sanctioned).toBe(true);
  });

  it('links the sender of native coin with its recipient, and raises the alert', async () => {
    const target = privateKeyToAccount(generatePrivateKey()).address;
    await track(target);
    const sent = await sanctioned.send(target, 10n ** 15n);
    await checked(sent.transactionHash);
    const [alert] = (
      await aml.waitFor((all) => all.some((r) => r.json?.hash === sent.transactionHash))
    ).filter((r) => r.json?.hash === sent.transactionHash);
    expect(alert!.json.hash_tags).toEqual({ direct_sanctioned: true });
    expect(await edge(target, sanctioned.address)).toBe('1');
  });

  it('links nobody for a reverted transaction: no exposure, no alert', async () => {
    const { Refuser } = compileSolidity(
      'pragma solidity ^0.8.20; contract Refuser { receive() external payable { revert("no"); } }',
    );
    const owner = await account();
    const refuser = await owner.deploy(Refuser!);
    await track(refuser);
    // An explicit gas limit: the estimate would fail on the revert. Mined by hand: Hardhat's
    // automine answers the send of a transaction that reverts with an error.
    await chain.test.setAutomine(false);
    const pending = sanctioned.send(refuser, 10n ** 15n, 100_000n);
    await eventually(
      () => chain.pub.getBlock({ blockTag: 'pending' }),
      (b) => b.transactions.length > 0,
    );
    await chain.mine(1);
    await chain.test.setAutomine(true);
    const sent = await pending;
    expect(sent.status).toBe('reverted');
    await checked(sent.transactionHash);
    expect(aml.received.filter((r) => r.json?.hash === sent.transactionHash)).toEqual([]);
    expect(await edge(refuser, sanctioned.address)).toBeUndefined();
    expect((await analyze(refuser)).direct_sanctioned).toBe(false);
    // A zero-value deployment links the deployer with nothing either.
    expect(await edge(owner.address, refuser)).toBeUndefined();
  });

  it('alerts on each transaction of a tracked address that is itself labelled and exchanges value, and on no other', async () => {
    await track(sanctioned.address);
    // A call that moves nothing: no counterparty, nothing risky done.
    const approval = await sanctioned.write(token, TestERC20.abi, 'approve', [
      privateKeyToAccount(generatePrivateKey()).address,
      1n,
    ]);
    await checked(approval.transactionHash);
    expect(aml.received.filter((r) => r.json?.hash === approval.transactionHash)).toEqual([]);

    const paid = privateKeyToAccount(generatePrivateKey()).address;
    const sent = await sanctioned.send(paid, 10n ** 15n);
    await checked(sent.transactionHash);
    const [alert] = (
      await aml.waitFor((all) => all.some((r) => r.json?.hash === sent.transactionHash))
    ).filter((r) => r.json?.hash === sent.transactionHash);
    expect(alert!.json.address).toBe(sanctioned.address.toLowerCase());
    expect(alert!.json.hash_tags).toEqual({ sanctioned: true });
    // A tag of the address itself comes through no counterparty.
    expect(alert!.json.triggered_by).toEqual([]);
    expect(alert!.json.tags.sanctioned).toBe(true);
  });

  it('subtracts in a reorg exactly what it added, and sql/0062 rebuilds the same graph', async () => {
    await chain.indexedHead(db.sql);
    const before = await graph();
    const snapshot = await chain.test.snapshot();
    // One block of each kind, then reorganised away.
    const a = await account();
    const minter = await account();
    await minter.write(token, TestERC20.abi, 'mint', [a.address, 100n]);
    await a.write(token, TestERC20.abi, 'transfer', [sanctioned.address, 1n]);
    await a.send(sanctioned.address, 1n);
    await a.write(token, TestERC20.abi, 'approve', [sanctioned.address, 1n]);
    await chain.indexedHead(db.sql);
    expect(await edge(a.address, sanctioned.address)).toBe('2');
    expect(await graph()).not.toEqual(before);

    await chain.test.revert({ id: snapshot });
    await chain.mine(6);
    await chain.indexedHead(db.sql);
    expect(await graph()).toEqual(before);

    // The migration's rebuild from the stored rows gives what the indexer built block by block.
    await db.sql.begin((tx) =>
      tx.unsafe(
        readFileSync(new URL('../sql/0062_evm_edges_value_flows.sql', import.meta.url), 'utf8'),
      ),
    );
    expect(await graph()).toEqual(before);
    expect(before.edges.length).toBeGreaterThan(0);
  });
});
