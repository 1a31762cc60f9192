import { exposureEdgesChanged, rebuildExposure } from '../src/aml/exposure-store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeAddress } from '../src/aml/analyze.js';
import { addressFacts } from '../src/aml/exposure.js';
import { trueTags } from '../src/aml/tags.js';
import { loadConfig } from '../src/config/index.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { ensureUtxoPartitions } from '../src/indexer/utxo/store.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { openPool } from '../src/db/index.js';

/** Exposure over address_edges, with edges written directly (the indexers' job in production). */

let db: TestDatabase;
const config = loadConfig({}).aml;
const NOW = 1_800_000_000;
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const [A, B, C, D, M] = [0xa, 0xb, 0xc, 0xd, 0x3].map(addr) as [
  string,
  string,
  string,
  string,
  string,
];

/** Both directions, and the stored exposure updated as the indexer's batches do. */
async function edge(network: string, from: string, to: string, txCount = 1) {
  await db.sql.begin(async (tx) => {
    const added = await tx<{ a: string; b: string }[]>`
      insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
      values (${network}, ${from}, ${to}, ${txCount}, 1, 1), (${network}, ${to}, ${from}, ${txCount}, 1, 1)
      on conflict do nothing returning address as a, counterparty as b`;
    await exposureEdgesChanged(tx, network, added, 1);
  });
}
async function label(network: string, address: string, category: string) {
  await db.sql`insert into labels (network, address, category, source) values (${network}, ${address}, ${category}, 'test')`;
}
const analyze = (address: string, network = 'eth', indexed = false, aml = config) =>
  analyzeAddress(db.sql, aml, { network, address, indexed, now: NOW });

beforeAll(async () => {
  db = await freshDatabase();
  await ensureNetworkPartitions(db.sql, 'eth');
  await ensureUtxoPartitions(db.sql, 'litecoin');
  for (const n of ['eth', 'bsc', 'litecoin'])
    await db.sql.unsafe(
      `create table if not exists address_edges_${n} partition of address_edges for values in ('${n}')`,
    );
  // A paid M (a mixer), B paid A, C paid D (clean).
  await label('evm', M, 'mixer');
  await edge('eth', A, M);
  await edge('eth', B, A);
  await edge('eth', C, D);
});
afterAll(async () => {
  await db?.drop();
});

describe('AML exposure over address_edges', () => {
  it('gives M mixer, A direct_mixer, B indirect_mixer, C nothing; scores M > A > B > C', async () => {
    const [m, a, b, c] = await Promise.all([M, A, B, C].map((x) => analyze(x)));
    expect(trueTags(m!.tags)).toEqual({ mixer: true }); // not indirect through itself (M–A–M)
    expect(trueTags(a!.tags)).toEqual({ direct_mixer: true });
    expect(trueTags(b!.tags)).toEqual({ indirect_mixer: true });
    expect(trueTags(c!.tags)).toEqual({});
    expect([m!.score, a!.score, b!.score, c!.score]).toEqual([80, 48, 24, 0]);
    expect(m!.score).toBeGreaterThan(a!.score);
    expect(a!.score).toBeGreaterThan(b!.score);
    expect(b!.score).toBeGreaterThan(c!.score);
  });

  it('finds the same exposure walking from the labels (the default) and from the counterparties', async () => {
    for (const x of [M, A, B, C, D]) {
      const fromLabels = await addressFacts(db.sql, 'eth', x, {
        maxCounterparties: config.max_counterparties,
        countUpTo: 5,
      });
      const fromCounterparties = await addressFacts(db.sql, 'eth', x, {
        maxCounterparties: config.max_counterparties,
        countUpTo: 5,
        inwardBudgetEdges: 0,
      });
      expect(fromCounterparties.findings, x).toEqual(fromLabels.findings);
    }
    const b = await addressFacts(db.sql, 'eth', B, {
      maxCounterparties: config.max_counterparties,
      countUpTo: 5,
      inwardBudgetEdges: 0,
    });
    expect(b.findings.indirect).toContain('mixer');
  });

  it('is per network: a family-wide label applies on bsc too, but eth edges do not', async () => {
    expect(trueTags((await analyze(M, 'bsc')).tags)).toEqual({ mixer: true });
    expect(trueTags((await analyze(A, 'bsc')).tags)).toEqual({});
    await label('bsc', D, 'gambling_accounts'); // bsc only
    expect(trueTags((await analyze(C, 'eth')).tags)).toEqual({});
  });

  it('counts a path of exactly two hops as indirect even when the address is also direct', async () => {
    const [P, Q, R] = [0x100, 0x101, 0x102].map(addr) as [string, string, string];
    await label('eth', R, 'phishing_activities');
    await edge('eth', P, R);
    await edge('eth', P, Q);
    await edge('eth', Q, R);
    expect(trueTags((await analyze(P)).tags)).toEqual({
      direct_phishing_activities: true,
      indirect_phishing_activities: true,
    });
  });

  it('flags deployers of labelled contracts, and their counterparties', async () => {
    const [X, K, Y, Z] = [0x200, 0x201, 0x202, 0x203].map(addr) as [string, string, string, string];
    await db.sql`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address, contract_address, value, gas, nonce, input)
      values ('eth', '0xdeploy', 1, '0xb', 0, ${X}, null, ${K}, 0, 100000, 0, '0x')`;
    expect((await analyze(X)).tags.number_of_malicious_contracts_created).toBe(false); // K carries no label yet
    await label('eth', K, 'stealing_attack');
    await edge('eth', Y, X);
    await edge('eth', Z, Y);
    expect(trueTags((await analyze(X)).tags)).toEqual({
      number_of_malicious_contracts_created: true,
    });
    expect(trueTags((await analyze(Y)).tags)).toEqual({
      direct_number_of_malicious_contracts_created: true,
    });
    expect(trueTags((await analyze(Z)).tags)).toEqual({
      indirect_number_of_malicious_contracts_created: true,
    });
    // The contract's label removed, or its creation reorged away: none of it holds any more.
    await db.sql`delete from labels where address = ${K}`;
    for (const a of [X, Y, Z]) expect(trueTags((await analyze(a)).tags), a).toEqual({});
    await label('eth', K, 'stealing_attack');
    expect(trueTags((await analyze(Z)).tags)).toEqual({
      indirect_number_of_malicious_contracts_created: true,
    });
    await db.sql`delete from evm_transactions where network = 'eth' and hash = '0xdeploy'`;
    for (const a of [X, Y, Z]) expect(trueTags((await analyze(a)).tags), a).toEqual({});
    // Created after the contract was labelled: the deployer is flagged when the creation is indexed.
    await db.sql`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address, contract_address, value, gas, nonce, input)
      values ('eth', '0xdeploy', 1, '0xb', 0, ${X}, null, ${K}, 0, 100000, 0, '0x')`;
    expect(trueTags((await analyze(Y)).tags)).toEqual({
      direct_number_of_malicious_contracts_created: true,
    });
  });

  it('computes new_wallet from the indexed history, only on indexed networks', async () => {
    const [old, young, few] = [0x300, 0x301, 0x302].map(addr) as [string, string, string];
    const rows = (a: string, n: number, t: number) =>
      Array.from({ length: n }, (_, i) => ({
        network: 'eth',
        address: a,
        block_number: 1000 + i,
        tx_hash: `0x${a.slice(-3)}${i}`,
        timestamp: t + i,
      }));
    await db.sql`insert into evm_tx_addresses ${db.sql([...rows(old, 6, NOW - 90 * 86_400), ...rows(young, 6, NOW - 86_400), ...rows(few, 4, NOW - 90 * 86_400)])}`;
    expect((await analyze(old, 'eth', true)).tags.new_wallet).toBe(false);
    expect((await analyze(young, 'eth', true)).tags.new_wallet).toBe(true);
    expect((await analyze(few, 'eth', true)).tags.new_wallet).toBe(true);
    expect((await analyze(addr(0x399), 'eth', true)).tags.new_wallet).toBe(true); // never seen
    expect((await analyze(addr(0x399), 'eth', false)).tags.new_wallet).toBe(false); // not indexed: unknown
    expect((await analyze(addr(0x399), 'eth', true)).score).toBe(config.weights.new_wallet);
  });

  it('works the same on a Bitcoin-family network', async () => {
    const [lm, la, lb] = ['ltc1qmixer', 'ltc1qalice', 'ltc1qbob'];
    await label('litecoin', lm, 'mixer');
    await edge('litecoin', la, lm);
    await edge('litecoin', lb, la);
    expect(trueTags((await analyze(la, 'litecoin')).tags)).toEqual({ direct_mixer: true });
    expect(trueTags((await analyze(lb, 'litecoin')).tags)).toEqual({ indirect_mixer: true });
  });

  it('reaches through 10,000 counterparties, and caps hop 1 at max_counterparties (most transactions first)', async () => {
    const hub = addr(0x5000);
    const bad = addr(0x5001);
    await label('eth', bad, 'darkweb_transactions');
    // hub has 10,000 counterparties; only the last one (fewest transactions) touches `bad`.
    await db.sql`insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
      select 'eth', ${hub}, '0x' || lpad(to_hex(1000000 + g), 40, '0'), 20000 - g, 1, 1 from generate_series(1, 10000) g
      union all select 'eth', '0x' || lpad(to_hex(1000000 + g), 40, '0'), ${hub}, 20000 - g, 1, 1 from generate_series(1, 10000) g`;
    await rebuildExposure(db.sql, 'eth'); // the edges above were written in SQL
    await edge('eth', addr(1000000 + 10000), bad);
    expect(trueTags((await analyze(hub)).tags)).toEqual({ indirect_darkweb_transactions: true });
    expect(
      trueTags((await analyze(hub, 'eth', false, { ...config, max_counterparties: 9999 })).tags),
    ).toEqual({});
  });

  it("is planned once per connection: Postgres runs the statement's generic plan, also where the statistics make some addresses huge", async () => {
    // Two addresses own every row of the network's history: for a parameter, the statistics
    // then expect half the table. The count's limit must still read the index, not the table.
    await ensureNetworkPartitions(db.sql, 'polygon');
    const [big1, big2] = [addr(0x7001), addr(0x7002)];
    await db.sql`insert into evm_tx_addresses (network, address, block_number, tx_hash, timestamp)
      select 'polygon', a, g, '0x' || to_hex(g), 1600000000 + g
      from generate_series(1, 5000) g, unnest(array[${big1}::text, ${big2}::text]) a`;
    await db.sql`analyze evm_tx_addresses`;
    // A connection of its own: the statement is prepared afresh on it (a pooled connection may
    // have run it for the tests above).
    const conn = openPool(db.url, { max: 1 });
    try {
      for (let i = 0; i < 8; i++) {
        const facts = await addressFacts(conn, 'polygon', i % 2 ? big1 : addr(0x7003 + i), {
          maxCounterparties: config.max_counterparties,
          countUpTo: 10,
        });
        expect(facts.txCount).toBe(i % 2 ? 10 : 0);
        expect(facts.firstSeen).toBe(i % 2 ? 1600000001 : null);
      }
      const [plans] = await conn<{ generic_plans: number; custom_plans: number }[]>`
        select generic_plans::int, custom_plans::int from pg_prepared_statements
        where statement like '%as tx_count%' and statement not like '%pg_prepared_statements%'`;
      // Postgres plans a prepared statement's first five runs for their values, then compares.
      expect(plans).toEqual({ generic_plans: 3, custom_plans: 5 });
    } finally {
      await conn.end();
    }
  });
});
