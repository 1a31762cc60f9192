import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hex } from 'viem';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet } from './helpers/chain.js';
import { eventually } from './helpers/eventually.js';

// Token URIs are chosen by whoever deploys a contract: with loopback not in
// TOLLGATE_NFT_METADATA_ALLOW_CIDRS, nothing on this machine may be fetched, however it is named,
// even though the webhook list allows loopback (the operator's own receivers): the lists are
// separate, and opening one never opens the other.

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let server: Server;
let base = '';
const hits: string[] = [];
let apikey: string;
let w: Awaited<ReturnType<typeof fundedWallet>>;
let nft: Hex;

beforeAll(async () => {
  db = await freshDatabase();
  server = createServer((req, res) => {
    hits.push(req.url!);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"leaked"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = await startTestAppliance(db.url, {
    TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    TOLLGATE_NFT_METADATA_ALLOW_CIDRS: '10.99.0.0/16',
    TOLLGATE_NFT_IPFS_GATEWAY: `${base}/ipfs/`,
  });
  apikey = (await createApiKey(db.sql, 'ssrf')).apikey;
  // The indexer starts at the head it first sees: send nothing before it has a cursor.
  await eventually(
    () => db.sql`select count(*)::int as n from indexer_cursors`,
    (r) => r[0]!.n === 1,
    30_000,
  );
  w = await fundedWallet();
  const { TestERC721 } = inject('contracts');
  nft = await w.deploy(TestERC721);
  const port = new URL(base).port;
  const uris = [
    `${base}/1.json`, // loopback literal
    `http://localhost:${port}/2.json`, // a name that resolves to loopback
    'ipfs://QmSecret/3.json', // the gateway itself is on loopback
    `http://[::ffff:127.0.0.1]:${port}/4.json`, // IPv4-mapped IPv6
    'http://169.254.169.254/latest/meta-data/', // cloud metadata
    `data:application/json,${encodeURIComponent('{"name":"Local"}')}`, // needs no connection at all
  ];
  for (const [i, uri] of uris.entries()) {
    await w.write(nft, TestERC721.abi, 'setTokenURI', [BigInt(i + 1), uri]);
    await w.write(nft, TestERC721.abi, 'mint', [w.address, BigInt(i + 1)]);
  }
});
afterAll(async () => {
  await app?.stop();
  server?.closeAllConnections();
  server?.close();
  await db?.drop();
});

describe('metadata fetches and the address guard', () => {
  it('does not fetch a token URI that points at a forbidden address, and still lists the token', async () => {
    const nfts = async () =>
      (
        await call(app.baseUrl, 'GET', `/v2/wallet/nfts?address=${w.address}`, {
          headers: { apikey },
        })
      ).json.data as any[];
    await eventually(nfts, (d) => d?.length === 6, 30_000);
    const rows = await eventually(
      () =>
        db.sql`select token_id::int as id, status, error from nft_metadata where token = ${nft.toLowerCase()} order by token_id`,
      (r) => r.length === 6 && r.every((x) => x.status !== 'pending'),
      30_000,
    );
    expect(rows.map((r) => r.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'ok',
    ]);
    for (const r of rows.slice(0, 5)) expect(r.error).toMatch(/forbidden address/);
    expect(hits).toEqual([]);

    const data = await nfts();
    expect(data.map((i) => [i.token_id, i.name, i.contract_name])).toEqual([
      ['1', '', 'Test Apes'],
      ['2', '', 'Test Apes'],
      ['3', '', 'Test Apes'],
      ['4', '', 'Test Apes'],
      ['5', '', 'Test Apes'],
      ['6', 'Local', 'Test Apes'],
    ]);
    expect(JSON.stringify(data)).not.toContain('leaked');
  });
});
