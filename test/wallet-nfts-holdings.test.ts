import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { randomAddress } from './helpers/chain.js';
import {
  listNftHoldings,
  recordFetch,
  requestMetadataFetches,
  type NftKey,
} from '../src/wallet/nft-store.js';
import { normalizeMetadata } from '../src/wallet/nft-metadata.js';
import { toNftItem } from '../src/wallet/nft-item.js';

// The holdings SQL and the metadata cache rules against real Postgres, with a synthetic history
// large enough to matter (no chain: rows are written as the indexer would write them).

const ZERO = '0x0000000000000000000000000000000000000000';
const MAX_ID = (2n ** 256n - 1n).toString();
const N721 = 3000;
const N1155 = 500;
const NOISE = 40_000;

let db: TestDatabase;
const wallet = randomAddress().toLowerCase();
const other = randomAddress().toLowerCase();
const third = randomAddress().toLowerCase();
const nft = randomAddress().toLowerCase();
const multi = randomAddress().toLowerCase();
const erc20 = randomAddress().toLowerCase();
const expected = new Map<string, bigint>(); // network|token|id → balance

type Row = [
  network: string,
  block: number,
  token: string,
  standard: string,
  from: string,
  to: string,
  id: string | null,
  value: string,
];
const rows: Row[] = [];
const blocks = new Map<string, number>();

function move(
  network: string,
  token: string,
  standard: 'ERC20' | 'ERC721' | 'ERC1155',
  from: string,
  to: string,
  id: bigint | null,
  value: bigint,
) {
  const block = (blocks.get(network) ?? 0) + 1;
  blocks.set(network, block);
  rows.push([network, block, token, standard, from, to, id?.toString() ?? null, value.toString()]);
  if (standard === 'ERC20') return;
  const key = `${network}|${token}|${id}`;
  if (to === wallet) expected.set(key, (expected.get(key) ?? 0n) + value);
  if (from === wallet) expected.set(key, (expected.get(key) ?? 0n) - value);
}

function history(network: string) {
  for (let id = 1n; id <= N721; id++) {
    move(network, nft, 'ERC721', ZERO, wallet, id, 1n);
    if (id % 3n === 0n)
      move(network, nft, 'ERC721', wallet, other, id, 1n); // sent away
    else if (id % 5n === 0n) move(network, nft, 'ERC721', wallet, ZERO, id, 1n); // burned
    if (id % 21n === 0n) move(network, nft, 'ERC721', other, wallet, id, 1n); // and back
  }
  move(network, nft, 'ERC721', ZERO, wallet, BigInt(MAX_ID), 1n);
  for (let id = 1n; id <= N1155; id++) {
    move(network, multi, 'ERC1155', ZERO, wallet, id, 10n);
    if (id % 2n === 0n) move(network, multi, 'ERC1155', wallet, other, id, 4n); // partial: 6 left
    if (id % 4n === 0n) move(network, multi, 'ERC1155', wallet, third, id, 6n); // the rest: gone
  }
  for (let i = 0n; i < 2000n; i++)
    move(network, erc20, 'ERC20', i % 2n ? wallet : other, i % 2n ? other : wallet, null, 5n);
}

beforeAll(async () => {
  db = await freshDatabase();
  for (const network of ['eth', 'polygon']) {
    await db.sql.unsafe(
      `create table if not exists evm_token_transfers_${network} partition of evm_token_transfers for values in ('${network}')`,
    );
    history(network);
  }
  for (let i = 0; i < NOISE; i++) move('eth', nft, 'ERC721', other, third, BigInt(100_000 + i), 1n); // other wallets
  await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash) values ('eth', 1, 0, ''), ('polygon', 137, 0, '')`;
  for (let i = 0; i < rows.length; i += 10_000) {
    const chunk = rows.slice(i, i + 10_000);
    const col = (n: number) => chunk.map((r) => r[n]);
    await db.sql`insert into evm_token_transfers (network, block_number, log_index, tx_hash, token, standard, from_address, to_address, token_id, value, timestamp)
      select u.network, u.block, 0, '0x', u.token, u.standard, u.from_a, u.to_a, u.id, u.value, 0
      from unnest(${col(0) as string[]}::text[], ${col(1) as number[]}::bigint[], ${col(2) as string[]}::text[], ${col(3) as string[]}::text[],
        ${col(4) as string[]}::text[], ${col(5) as string[]}::text[], ${col(6) as string[]}::numeric[], ${col(7) as string[]}::numeric[])
        as u(network, block, token, standard, from_a, to_a, id, value)`;
  }
  await db.sql`vacuum analyze evm_token_transfers_eth`;
  await db.sql`vacuum analyze evm_token_transfers_polygon`;
});
afterAll(async () => {
  await db?.drop();
});

describe('NFT holdings from transfers', () => {
  it('is received minus sent per token, ERC-1155 amounts summed, sent-away and burned tokens gone', async () => {
    const started = performance.now();
    const holdings = await listNftHoldings(db.sql, wallet, ['eth', 'polygon']);
    const ms = performance.now() - started;
    const want = [...expected]
      .filter(([, balance]) => balance > 0n)
      .map(([k]) => k.split('|'))
      .sort(
        (a, b) =>
          a[0]!.localeCompare(b[0]!) ||
          a[1]!.localeCompare(b[1]!) ||
          (BigInt(a[2]!) < BigInt(b[2]!) ? -1 : 1),
      );
    expect(holdings.map((h) => [h.network, h.token, h.token_id])).toEqual(want);
    expect(holdings.length).toBeGreaterThan(3000);
    // Spot checks of the rules, not only agreement with the model above.
    const has = (network: string, token: string, id: string) =>
      holdings.some((h) => h.network === network && h.token === token && h.token_id === id);
    expect(has('eth', nft, '1')).toBe(true);
    expect(has('eth', nft, '3')).toBe(false); // sent away
    expect(has('eth', nft, '5')).toBe(false); // burned
    expect(has('eth', nft, '21')).toBe(true); // sent away and back
    expect(has('polygon', multi, '2')).toBe(true); // 10 − 4
    expect(has('polygon', multi, '4')).toBe(false); // 10 − 4 − 6
    expect(has('eth', nft, MAX_ID)).toBe(true);
    expect(holdings.some((h) => h.token === erc20)).toBe(false);
    expect(new Set(holdings.map((h) => `${h.network}:${h.chain_id}`))).toEqual(
      new Set(['eth:1', 'polygon:137']),
    );
    expect(holdings.find((h) => h.token === multi)!.standard).toBe('ERC1155');
    expect(
      holdings.every((h) => h.fetch_due && h.metadata === null && h.contract_name === null),
    ).toBe(true);
    expect((await listNftHoldings(db.sql, wallet, ['eth'])).every((h) => h.network === 'eth')).toBe(
      true,
    );
    expect(
      await listNftHoldings(db.sql, randomAddress().toLowerCase(), ['eth', 'polygon']),
    ).toEqual([]);

    const plan = await db.sql.unsafe(
      `explain select 1 from evm_token_transfers where to_address = '${wallet}' and network = any('{eth,polygon}') and standard <> 'ERC20'`,
    );
    const scans = plan
      .map((r) => String(r['QUERY PLAN']))
      .filter((l) => /Scan/.test(l))
      .map((l) => l.trim().split(' on ')[0]);
    console.log(
      `holdings of ${holdings.length} NFTs from ${rows.length} transfer rows: ${ms.toFixed(1)} ms; plan: ${[...new Set(scans)].join(', ')}`,
    );
  });
});

describe('metadata fetch requests', () => {
  const keyOf = (h: {
    network: string;
    token: string;
    token_id: string;
    standard: NftKey['standard'];
  }): NftKey => ({
    network: h.network,
    token: h.token,
    token_id: h.token_id,
    standard: h.standard,
  });
  const jobs = async () =>
    (
      await db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'fetch_nft_metadata'`
    )[0]!.n as number;
  const find = async (key: NftKey) =>
    (await listNftHoldings(db.sql, wallet, ['eth', 'polygon'])).find(
      (h) => h.network === key.network && h.token === key.token && h.token_id === key.token_id,
    )!;

  it('enqueues one job per token, once, and follows the due rules', async () => {
    const holdings = await listNftHoldings(db.sql, wallet, ['eth', 'polygon']);
    const keys = holdings.slice(0, 10).map(keyOf);
    expect(await requestMetadataFetches(db.sql, keys)).toBe(10);
    expect(await jobs()).toBe(10);
    await requestMetadataFetches(db.sql, keys); // asked again while waiting: still one job each
    expect(await jobs()).toBe(10);
    const [k0, k1] = [keys[0]!, keys[1]!];
    expect((await find(k0)).fetch_due).toBe(false); // pending, just asked for
    expect(holdings[10]!.fetch_due).toBe(true);

    const metadata = normalizeMetadata('{"name":"Zero","image":"ipfs://QmA/0.png"}');
    await recordFetch(db.sql, k0, { status: 'ok', tokenUri: 'ipfs://QmA/0.json', metadata });
    const ok = await find(k0);
    expect(ok.metadata).toEqual(metadata);
    expect(toNftItem(ok, 'https://gw.test/ipfs/')).toMatchObject({
      name: 'Zero',
      media: [{ gateway: 'https://gw.test/ipfs/QmA/0.png' }],
    });

    // A failed refresh keeps the last good metadata; a failure is due again after a while.
    await recordFetch(db.sql, k0, {
      status: 'failed',
      tokenUri: null,
      error: 'metadata server answered 503',
    });
    const failed = await find(k0);
    expect(failed.metadata).toEqual(metadata);
    expect(failed.fetch_due).toBe(false);
    await db.sql`update nft_metadata set fetched_at = now() - interval '31 minutes' where token_id = ${k0.token_id} and network = ${k0.network} and token = ${k0.token}`;
    expect((await find(k0)).fetch_due).toBe(true);
    const [row] =
      await db.sql`select status, error, token_uri from nft_metadata where network = ${k0.network} and token = ${k0.token} and token_id = ${k0.token_id}`;
    expect(row).toEqual({
      status: 'failed',
      error: 'metadata server answered 503',
      token_uri: 'ipfs://QmA/0.json',
    });

    // A fetch asked for long ago that never finished (its job lost) is due again too.
    await db.sql`update nft_metadata set requested_at = now() - interval '31 minutes' where token_id = ${k1.token_id} and network = ${k1.network} and token = ${k1.token}`;
    expect((await find(k1)).fetch_due).toBe(true);
  });
});
