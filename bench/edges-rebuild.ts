/**
 * How long sql/0062 (the EVM counterparty graph rebuilt as value flows, and the stored exposure
 * with it) takes on a database of N stored transactions: an embedded Postgres of its own, every
 * migration applied, then N transactions in N/100 blocks (half with a value, 1% reverted, 200,000
 * addresses), N/2 ERC-20 transfers and 500 sanctioned labels generated in SQL, vacuum-analysed;
 * then the migration's text run twice in a transaction, as the migration runs it.
 *   npm run bench:edges-rebuild -- [N]      (default 1,000,000)
 * Writes bench/results/edges-rebuild.json. Figures, not assertions.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { setLogLevel } from '../src/log.js';
import { machine, writeResult } from './lib/common.js';

setLogLevel('warn');
const N = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
chmodSync(dir, 0o711);
const db = await startEmbeddedPostgres(dir);
const sql = postgres(db.url, { max: 2, onnotice: () => {} });
try {
  await migrate(sql as never, db.url);
  await ensureNetworkPartitions(sql as never, 'eth');
  const addr = (e: string) => `'0x' || lpad(to_hex(${e}), 40, '0')`;
  const generated = performance.now();
  await sql.unsafe(`insert into evm_blocks (network, number, hash, parent_hash, timestamp, tx_count)
    select 'eth', g, 'h' || g, 'h' || (g - 1), 1700000000 + g * 12, 100 from generate_series(1, ${N / 100}) g`);
  await sql.unsafe(`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address,
      to_address, value, gas, nonce, input, status)
    select 'eth', 't' || g, 1 + g / 100, 'h' || (1 + g / 100), g % 100, ${addr('1 + (g * 7919) % 200000')},
      ${addr('1 + abs(hashtext(g::text)) % 200000')}, case when g % 2 = 0 then 1000 else 0 end, 21000, g, '0x',
      case when g % 100 = 0 then 0 else 1 end
    from generate_series(0::bigint, ${N - 1}) g`);
  await sql.unsafe(`insert into evm_token_transfers (network, block_number, log_index, batch_index, tx_hash, token,
      standard, from_address, to_address, token_id, value, timestamp)
    select 'eth', 1 + g / 100, g % 100, 0, 't' || g, ${addr('300000')}, 'ERC20', ${addr('1 + abs(hashtext((g * 31)::text)) % 200000')},
      ${addr('1 + abs(hashtext((g * 3)::text)) % 200000')}, null, 5, 1700000000 + (1 + g / 100) * 12
    from generate_series(1::bigint, ${N - 1}, 2) g`);
  await sql`insert into labels (network, address, category, source)
    select 'evm', '0x' || lpad(to_hex(g), 40, '0'), 'sanctioned', 'bench' from generate_series(1, 500) g`;
  await sql`vacuum analyze`;
  console.log(`generated ${N} transactions in ${Math.round(performance.now() - generated)} ms`);

  const text = readFileSync(
    new URL('../sql/0062_evm_edges_value_flows.sql', import.meta.url),
    'utf8',
  );
  const runs = [];
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    await sql.begin((tx) => tx.unsafe(text));
    const ms = Math.round(performance.now() - t0);
    const [c] = await sql<{ edges: string; exposure: string }[]>`
      select (select count(*) from address_edges)::text as edges, (select count(*) from address_exposure)::text as exposure`;
    runs.push({ ms, edges: Number(c!.edges), exposure_rows: Number(c!.exposure) });
    console.log(
      `sql/0062 run ${i + 1}: ${ms} ms (${c!.edges} edges, ${c!.exposure} exposure rows)`,
    );
  }
  writeResult('edges-rebuild', {
    date: new Date().toISOString(),
    machine: machine(),
    transactions: N,
    token_transfers: Math.floor(N / 2),
    runs,
  });
} finally {
  await sql.end();
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
}
