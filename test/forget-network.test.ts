import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureNetworkPartitions, forgetNetwork } from '../src/indexer/evm/store.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * A network forgotten (the dev chain is new at each start) leaves nothing read from its
 * contracts behind: the next chain deploys other contracts to the same addresses, and one
 * showed the previous one's NFT metadata (found by an outside probe). Other networks keep theirs.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
  for (const network of ['eth', 'polygon']) await ensureNetworkPartitions(db.sql, network);
});
afterAll(async () => {
  await db?.drop();
});

it('forgets the chain data, tokens and NFT metadata of one network, and only of it', async () => {
  const token = '0x' + 'ab'.repeat(20);
  for (const network of ['eth', 'polygon']) {
    await db.sql`insert into evm_tokens (network, address, name, symbol, decimals)
      values (${network}, ${token}, 'Old', 'OLD', 0)`;
    await db.sql`insert into nft_metadata (network, token, token_id, standard, metadata, status)
      values (${network}, ${token}, 1, 'ERC721', ${db.sql.json({ name: 'old' })}, 'ok')`;
  }
  await forgetNetwork(db.sql, 'eth');
  const left = async (table: 'evm_tokens' | 'nft_metadata') =>
    (
      await db.sql<{ network: string }[]>`select network from ${db.sql(table)} order by network`
    ).map((r) => r.network);
  expect(await left('evm_tokens')).toEqual(['polygon']);
  expect(await left('nft_metadata')).toEqual(['polygon']);
});
