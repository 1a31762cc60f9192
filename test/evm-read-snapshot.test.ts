import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import type { TransactionSql } from '../src/db/index.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { randomAddress } from './helpers/chain.js';
import { commitWhileRead } from './helpers/commit-while-read.js';
import { evmTxFromIndex } from '../src/txdetail/evm.js';
import { addEdges } from '../src/indexer/edges.js';
import { loadConfig } from '../src/config/index.js';
import { screenParties } from '../src/travelrule/screening.js';

// Answers read from several tables see one snapshot: a block stored or reorged away meanwhile is
// in all of it or in none. X-Tollgate-History never names a block whose rows the answer lacks; a
// transaction's detail never comes without its token transfers. The API runs alone (no
// indexer): this file writes the chain tables as the indexer does.
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
const wallet = randomAddress().toLowerCase();
const other = randomAddress().toLowerCase();
const hash = (n: number, tag: string) => `0x${tag}${n.toString(16).padStart(64 - tag.length, '0')}`;

/** Block n with one transfer from `other` to the wallet, as the indexer stores it. */
async function storeBlock(tx: TransactionSql, n: number): Promise<void> {
  const ts = 1_700_000_000 + n * 12;
  await tx`insert into evm_blocks (network, number, hash, parent_hash, timestamp, tx_count)
    values ('eth', ${n}, ${hash(n, 'b')}, ${hash(n - 1, 'b')}, ${ts}, 1)`;
  await tx`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address,
      value, gas, gas_price, gas_used, nonce, input, status)
    values ('eth', ${hash(n, 't')}, ${n}, ${hash(n, 'b')}, 0, ${other}, ${wallet}, ${n}, 21000, 1, 21000, ${n}, '0x', 1)`;
  await tx`insert into evm_tx_addresses (network, address, block_number, tx_hash, timestamp)
    values ('eth', ${other}, ${n}, ${hash(n, 't')}, ${ts}), ('eth', ${wallet}, ${n}, ${hash(n, 't')}, ${ts})`;
  await tx`update indexer_cursors set block_number = ${n}, block_hash = ${hash(n, 'b')} where network = 'eth'`;
}

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {}, API_ONLY);
  apikey = (await createApiKey(db.sql, 'history')).apikey;
  await ensureNetworkPartitions(db.sql, 'eth');
  await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, history_from)
    values ('eth', 31337, 0, ${hash(0, 'b')}, 1)`;
  await db.sql.begin((tx) => storeBlock(tx, 1));
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe('X-Tollgate-History on /v2/wallet/transactions', () => {
  it('comes from the same snapshot as the page: a block stored meanwhile is in both or in neither', async () => {
    const before = await call(
      app.baseUrl,
      'GET',
      `/v2/wallet/transactions?address=${wallet}&page=1&limit=10`,
      {
        headers: { apikey },
      },
    );
    expect(before.headers['x-tollgate-history']).toBe('eth=1-1');
    expect(before.json.data.map((t: { block_number: string }) => t.block_number)).toEqual(['1']);

    // Block 2 is stored while the request runs: a read of the cursors sees it, a page read on its
    // own beside that read does not.
    const { value: res } = await commitWhileRead(
      db.sql,
      'indexer_cursors',
      (tx) => storeBlock(tx, 2),
      () =>
        call(app.baseUrl, 'GET', `/v2/wallet/transactions?address=${wallet}&page=1&limit=10`, {
          headers: { apikey },
        }),
    );
    if (!res) throw new Error('the request failed');
    expect(res.status).toBe(200);
    const blocks = res.json.data.map((t: { block_number: string }) => t.block_number);
    const reach = /^eth=(\d+)-(\d+)$/.exec(res.headers['x-tollgate-history'] as string);
    expect(reach).not.toBeNull();
    // Every block the header names as indexed has its rows in the page.
    for (let n = Number(reach![1]); n <= Number(reach![2]); n++)
      expect(blocks).toContain(String(n));
    expect(res.headers['x-tollgate-history']).toBe('eth=1-2');
    expect(blocks).toEqual(['2', '1']);
  });
});

describe('/analyze/tx_detail of an EVM transaction, from the index', () => {
  it('gives its token transfers, or nothing when a reorg removes it while it is read', async () => {
    const token = randomAddress().toLowerCase();
    await db.sql.begin(async (tx) => {
      await storeBlock(tx, 3);
      await tx`insert into evm_token_transfers (network, block_number, log_index, batch_index, tx_hash, token, standard,
          from_address, to_address, token_id, value, timestamp)
        values ('eth', 3, 0, 0, ${hash(3, 't')}, ${token}, 'ERC20', ${wallet}, ${other}, null, 5000000, ${1_700_000_036})`;
    });
    const detail = await evmTxFromIndex(db.sql, undefined, 'eth', hash(3, 't'));
    expect(detail?.transfers).toHaveLength(1);
    expect(detail?.parties).toEqual(expect.arrayContaining([wallet, other]));

    const outcome = await commitWhileRead(
      db.sql,
      'evm_token_transfers',
      async (tx) => {
        for (const table of [
          'evm_token_transfers',
          'evm_tx_addresses',
          'evm_transactions',
        ] as const)
          await tx`delete from ${tx(table)} where network = 'eth' and block_number = 3`;
        await tx`delete from evm_blocks where network = 'eth' and number = 3`;
        await tx`update indexer_cursors set block_number = 2, block_hash = ${hash(2, 'b')} where network = 'eth'`;
      },
      () => evmTxFromIndex(db.sql, undefined, 'eth', hash(3, 't')),
    );
    expect(outcome.error).toBeUndefined();
    // Not in the index (the node is asked next), never the transaction without its transfer.
    expect(outcome.value).toBeNull();
  });
});

/** An address with one counterparty, labelled a mixer: direct_mixer. */
async function mixerNeighbour(): Promise<{ screened: string; mixer: string }> {
  const screened = randomAddress().toLowerCase();
  const mixer = randomAddress().toLowerCase();
  await db.sql.begin((tx) =>
    addEdges(tx, 'eth', [{ timestamp: 1_700_000_000n, pairs: [[mixer, screened]] }]),
  );
  await db.sql`insert into labels (network, address, category, source, name) values ('eth', ${mixer}, 'mixer', 'test', 'a mixer')`;
  return { screened, mixer };
}

/** Removes the mixer's label while `read` runs: its read of the edges waits for the commit. */
const unlabelWhile = <T>(mixer: string, read: () => Promise<T>) =>
  commitWhileRead(
    db.sql,
    'address_edges',
    async (tx) => {
      await tx`delete from labels where address = ${mixer}`;
    },
    read,
  );

describe('/analyze/aml?detail=true', () => {
  it('explains every true tag from the same state of the labels as the score', async () => {
    const { screened, mixer } = await mixerNeighbour();
    const path = `/v2/analyze/aml?network=eth&address=${screened}&detail=true`;
    const before = await call(app.baseUrl, 'GET', path, { headers: { apikey } });
    expect(before.json.data.tags.direct_mixer).toBe(true);
    expect(before.json.data.explanation.tags.direct_mixer.counterparties).toEqual([
      expect.objectContaining({ address: mixer, labelled: mixer }),
    ]);

    // The label is removed while the answer is read: the explanation's read of the edges waits
    // for the removal's commit, the score's read beside it does not.
    const { value: res } = await unlabelWhile(mixer, () =>
      call(app.baseUrl, 'GET', path, { headers: { apikey } }),
    );
    if (!res) throw new Error('the request failed');
    expect(res.status).toBe(200);
    const { tags, explanation } = res.json.data;
    // Whichever state it saw, every true direct_ or indirect_ tag names the counterparty behind it.
    for (const [tag, on] of Object.entries(tags))
      if (on && /^(direct|indirect)_/.test(tag))
        expect(explanation.tags[tag]?.counterparties?.length, tag).toBeGreaterThan(0);
    const after = await call(app.baseUrl, 'GET', path, { headers: { apikey } });
    expect(after.json.data.tags.direct_mixer).toBe(false);
    expect(after.json.data.explanation.labels_version).not.toBe(
      before.json.data.explanation.labels_version,
    );
  });

  it('screens a Travel Rule transaction’s parties from one state of the labels', async () => {
    const { screened, mixer } = await mixerNeighbour();
    const party = (address: string) => ({ persons: [], accountNumber: [address] });
    const screen = () =>
      screenParties(db.sql, loadConfig({}).aml, ['eth'], {
        network: 'eth',
        originator: party(screened),
        beneficiary: party(randomAddress().toLowerCase()),
      });
    const { value: screening, error } = await unlabelWhile(mixer, screen);
    expect(error).toBeUndefined();
    // The tag and its explanation agree: both from before the removal (the screening began then).
    expect(screening!.originator.tags.direct_mixer).toBe(true);
    const explained = screening!.originator.explanations?.[0]?.explanation;
    expect(explained?.tags.direct_mixer?.counterparties?.map((c) => c.address)).toEqual([mixer]);
    expect((await screen()).originator.tags.direct_mixer).toBeUndefined();
  });
});
