import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hex } from 'viem';
import { createApiKey } from '../src/keys/keys.js';
import { NftItem } from '../src/wallet/nft-item.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { eventually } from './helpers/eventually.js';

// GET /v2/wallet/nfts end to end: real chain, indexer, worker, metadata server on loopback.
// The same dev chain is indexed as `eth` and as `polygon`, so every holding shows on both.

/** A metadata server on 127.0.0.1: a body per path, 'hold' keeps the request open until release(). */
class MetadataServer {
  readonly hits: string[] = [];
  readonly routes = new Map<string, { status: number; body: string; location?: string } | 'hold'>();
  private held: [string, ServerResponse][] = [];
  private server: Server | undefined;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      this.hits.push(req.url!);
      const route = this.routes.get(req.url!);
      if (route === 'hold') return void this.held.push([req.url!, res]);
      if (!route) return void res.writeHead(404).end();
      res
        .writeHead(route.status, route.location ? { location: route.location } : {})
        .end(route.body);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  json(path: string, doc: object) {
    this.routes.set(path, { status: 200, body: JSON.stringify(doc) });
  }
  count(path: string) {
    return this.hits.filter((h) => h === path).length;
  }
  release(path: string, doc: object) {
    this.json(path, doc);
    for (const [, res] of this.held.filter(([p]) => p === path))
      res.writeHead(200).end(JSON.stringify(doc));
    this.held = this.held.filter(([p]) => p !== path);
  }
  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}

const hex = (id: number) => id.toString(16).padStart(64, '0');
const EMPTY = { name: '', image: '', description: '', attributes: [] };
const NETWORKS = ['eth', 'matic'];

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let meta: MetadataServer;
let apikey: string;
let w: Awaited<ReturnType<typeof fundedWallet>>;
let nft: Hex;
let multi: Hex;
const other = randomAddress();

const nfts = async (query = '') =>
  (
    await call(app.baseUrl, 'GET', `/v2/wallet/nfts?address=${w.address}${query}`, {
      headers: { apikey },
    })
  ).json;
const find = (data: any[], network: string, contract: string, id: number | string) =>
  data.filter(
    (i) =>
      i.network === network &&
      i.contract_address === contract.toLowerCase() &&
      i.token_id === String(id),
  );
const one = (data: any[], network: string, contract: string, id: number) =>
  find(data, network, contract, id)[0];
/** Waits until every network's item satisfies `ok`; returns the last answer. */
const until = async (contract: string, id: number, ok: (item: any) => boolean) =>
  (
    await eventually(
      () => nfts(),
      (r) =>
        NETWORKS.every((n) => one(r.data, n, contract, id) && ok(one(r.data, n, contract, id))),
      30_000,
    )
  ).data as any[];

beforeAll(async () => {
  db = await freshDatabase();
  meta = await new MetadataServer().start();
  const rpc = inject('rpcUrl');
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_POLYGON: rpc,
    TOLLGATE_CONFIRMATIONS_POLYGON: '3',
    TOLLGATE_POLL_INTERVAL_MS_POLYGON: '100',
    TOLLGATE_NFT_IPFS_GATEWAY: `${meta.url}/ipfs/`,
  });
  apikey = (await createApiKey(db.sql, 'nfts')).apikey;
  // Indexers start at the head they first see: send nothing before both have a cursor.
  await eventually(
    () => db.sql`select count(*)::int as n from indexer_cursors`,
    (r) => r[0]!.n === 2,
    30_000,
  );
  w = await fundedWallet();
  const w2 = await fundedWallet('1');
  const { TestERC721, TestERC1155 } = inject('contracts');
  nft = await w.deploy(TestERC721);
  multi = await w.deploy(TestERC1155);
  const a721 = TestERC721.abi;
  const a1155 = TestERC1155.abi;

  meta.json('/meta/1.json', {
    name: 'One',
    description: 'first',
    image: 'ipfs://QmImg/1.png',
    external_url: 'https://apes.test/1',
    attributes: [{ trait_type: 'level', value: 5 }],
  });
  meta.json('/ipfs/QmMeta/4.json', { name: 'Four', image: 'https://img.test/4.png' });
  meta.routes.set('/meta/6.json', { status: 500, body: '' });
  meta.routes.set('/meta/9.json', 'hold');
  meta.routes.set('/meta/10-hop', { status: 302, body: '', location: '/meta/10.json' });
  meta.json('/meta/10.json', { name: 'Ten' });
  meta.routes.set('/meta/11-hop', {
    status: 302,
    body: '',
    location: 'http://169.254.169.254/latest/meta-data/',
  });
  meta.json(`/erc1155/${hex(7)}.json`, { name: 'Multi 7', properties: { rarity: 'rare' } });
  meta.json(`/erc1155/${hex(9)}.json`, { name: 'Multi 9' });
  const two = {
    name: 'Two',
    image: 'data:image/svg+xml;base64,PHN2Zy8+',
    properties: { rarity: 'common' },
  };
  const uris: Record<number, string> = {
    1: `${meta.url}/meta/1.json`,
    2: `data:application/json;base64,${Buffer.from(JSON.stringify(two)).toString('base64')}`,
    3: `data:application/json,${encodeURIComponent(JSON.stringify({ name: 'Three %', description: 'percent-encoded' }))}`,
    4: 'ipfs://QmMeta/4.json',
    5: 'http://127.0.0.1:1/5.json', // nothing listens there
    6: `${meta.url}/meta/6.json`,
    9: `${meta.url}/meta/9.json`,
    10: `${meta.url}/meta/10-hop`,
    11: `${meta.url}/meta/11-hop`,
    // Half a surrogate pair, which jsonb refuses: the token stayed "pending" for ever.
    14: `data:application/json;base64,${Buffer.from('{"name":"sur\\ud800rogate"}').toString('base64')}`,
  };
  for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]) {
    if (uris[id]) await w.write(nft, a721, 'setTokenURI', [BigInt(id), uris[id]]);
    await w.write(nft, a721, 'mint', [w.address, BigInt(id)]);
  }
  await w.write(nft, a721, 'transferFrom', [w.address, other, 7n]); // sent away
  await w.write(nft, a721, 'burn', [8n]); // burned
  await w.write(nft, a721, 'transferFrom', [w.address, w2.address, 13n]); // sent away and back
  await w2.write(nft, a721, 'transferFrom', [w2.address, w.address, 13n]);
  await w.write(multi, a1155, 'setURI', [`${meta.url}/erc1155/{id}.json`]);
  await w.write(multi, a1155, 'mint', [w.address, 7n, 5n]);
  await w.write(multi, a1155, 'safeTransferFrom', [w.address, other, 7n, 2n, '0x']); // 3 left
  await w.write(multi, a1155, 'mint', [w.address, 8n, 2n]);
  await w.write(multi, a1155, 'safeTransferFrom', [w.address, other, 8n, 2n, '0x']); // none left
  await w.write(multi, a1155, 'mintBatch', [w.address, [9n, 10n], [1n, 1n]]);
  await w.write(multi, a1155, 'burn', [10n, 1n]);
});
afterAll(async () => {
  await app?.stop();
  await meta?.stop();
  await db?.drop();
});

describe('GET /v2/wallet/nfts', () => {
  it('lists what the wallet holds on every indexed EVM network, with stable types', async () => {
    const want = NETWORKS.flatMap((n) => [
      ...[1, 2, 3, 4, 5, 6, 9, 10, 11, 13, 14].map(
        (id) => `${n} ${nft.toLowerCase()} ERC721 ${id}`,
      ),
      ...[7, 9].map((id) => `${n} ${multi.toLowerCase()} ERC1155 ${id}`),
    ]).sort();
    const got = (r: any) =>
      (r.data ?? [])
        .map((i: any) => `${i.network} ${i.contract_address} ${i.token_type} ${i.token_id}`)
        .sort();
    // How many: 1 of each ERC-721; of the ERC-1155s, 5 minted less 2 sent of id 7, 1 of id 9.
    const amounts = (r: any) =>
      Object.fromEntries(
        r.data.map((i: any) => [`${i.network} ${i.contract_address} ${i.token_id}`, i.amount]),
      );
    // The two indexers move independently: wait for the whole set, not a count.
    const res = await eventually(
      () => nfts(),
      (r) => JSON.stringify(got(r)) === JSON.stringify(want),
      30_000,
    );
    expect(res).toMatchObject({ code: 0, message: 'OK' });
    expect(got(res)).toEqual(want);
    for (const n of NETWORKS) {
      expect(amounts(res)[`${n} ${multi.toLowerCase()} 7`]).toBe('3');
      expect(amounts(res)[`${n} ${multi.toLowerCase()} 9`]).toBe('1');
      expect(amounts(res)[`${n} ${nft.toLowerCase()} 1`]).toBe('1');
    }
    for (const item of res.data) {
      expect(NftItem.strict().parse(item)).toEqual(item);
      expect(item.chainId).toBe(31337);
    }
  });

  it('never waits on a fetch: a token whose metadata is on its way is listed with what is known', async () => {
    await eventually(
      async () => meta.count('/meta/9.json'),
      (n) => n === 2,
      30_000,
    ); // both fetches are in progress
    const started = Date.now();
    const res = await nfts();
    // Waiting on the held fetch would take its whole 10 s timeout.
    expect(Date.now() - started).toBeLessThan(8_000);
    for (const n of NETWORKS) {
      expect(one(res.data, n, nft, 9)).toMatchObject({
        name: '',
        image: '',
        description: '',
        media: [],
        metadata: EMPTY,
        contract_name: 'Test Apes',
        contract_symbol: 'TAPE',
        metadata_status: 'pending',
      });
    }
    meta.release('/meta/9.json', { name: 'Nine' });
    await until(nft, 9, (i) => i.name === 'Nine');
  });

  it('answers the first look at a wallet with its metadata, or says it is on its way', async () => {
    const a721 = inject('contracts').TestERC721.abi;
    const [quick, slow] = [randomAddress(), randomAddress()];
    meta.json('/meta/20.json', { name: 'Twenty' });
    meta.routes.set('/meta/21.json', 'hold');
    for (const [id, to] of [
      [20n, quick],
      [21n, slow],
    ] as const) {
      await w.write(nft, a721, 'setTokenURI', [id, `${meta.url}/meta/${id}.json`]);
      await w.write(nft, a721, 'mint', [to, id]);
    }
    // Indexed on both networks, and nobody has asked for either wallet yet.
    await eventually(
      () =>
        db.sql`select count(*)::int as n from evm_token_transfers where to_address in (${quick.toLowerCase()}, ${slow.toLowerCase()})`,
      (r) => r[0]!.n === 4,
      30_000,
    );
    const look = (address: string) =>
      call(app.baseUrl, 'GET', `/v2/wallet/nfts?address=${address}`, { headers: { apikey } });

    // The first answer waits for a fetch that comes within the bound: a backend caching it
    // keeps real names, not blanks.
    const first = await look(quick);
    for (const n of NETWORKS)
      expect(one(first.json.data, n, nft, 20)).toMatchObject({
        name: 'Twenty',
        metadata_status: 'ok',
      });
    expect(first.headers['x-tollgate-metadata-pending']).toBeUndefined();

    // A fetch that does not come in time: listed with what is known, marked, not to be kept.
    const waiting = await look(slow);
    for (const n of NETWORKS)
      expect(one(waiting.json.data, n, nft, 21)).toMatchObject({
        name: '',
        metadata_status: 'pending',
      });
    expect(waiting.headers['x-tollgate-metadata-pending']).toBe('2');
    expect(waiting.headers['cache-control']).toBe('no-store');
    meta.release('/meta/21.json', { name: 'Twenty-one' });
    const later = await eventually(
      () => look(slow),
      (r) => NETWORKS.every((n) => one(r.json.data, n, nft, 21)?.name === 'Twenty-one'),
      30_000,
    );
    expect(one(later.json.data, 'eth', nft, 21).metadata_status).toBe('ok');
    expect(later.headers['x-tollgate-metadata-pending']).toBeUndefined();
  });

  it('fills in metadata from http(s), ipfs:// through the gateway, data: URIs, ERC-1155 {id} and redirects', async () => {
    let data = await until(nft, 1, (i) => i.name === 'One');
    expect(one(data, 'matic', nft, 1)).toEqual({
      name: 'One',
      image: 'ipfs://QmImg/1.png',
      media: [{ raw: 'ipfs://QmImg/1.png', gateway: `${meta.url}/ipfs/QmImg/1.png` }],
      chainId: 31337,
      network: 'matic',
      token_id: '1',
      token_type: 'ERC721',
      description: 'first',
      metadata: {
        name: 'One',
        image: 'ipfs://QmImg/1.png',
        description: 'first',
        external_url: 'https://apes.test/1',
        attributes: [{ trait_type: 'level', value: '5' }],
      },
      contract_name: 'Test Apes',
      contract_symbol: 'TAPE',
      contract_address: nft.toLowerCase(),
      amount: '1',
      metadata_status: 'ok',
    });
    data = await until(nft, 2, (i) => i.name === 'Two');
    expect(one(data, 'eth', nft, 2)).toMatchObject({
      media: [
        {
          raw: 'data:image/svg+xml;base64,PHN2Zy8+',
          gateway: 'data:image/svg+xml;base64,PHN2Zy8+',
        },
      ],
      metadata: { properties: { rarity: 'common' } },
    });
    expect(one(data, 'eth', nft, 2).metadata.attributes).toBeUndefined();
    data = await until(nft, 3, (i) => i.name === 'Three %');
    expect(one(data, 'eth', nft, 3).description).toBe('percent-encoded');
    data = await until(nft, 4, (i) => i.name === 'Four');
    expect(one(data, 'eth', nft, 4).media).toEqual([
      { raw: 'https://img.test/4.png', gateway: 'https://img.test/4.png' },
    ]);
    expect(meta.count('/ipfs/QmMeta/4.json')).toBeGreaterThanOrEqual(2);
    await until(nft, 10, (i) => i.name === 'Ten');
    data = await until(nft, 14, (i) => i.metadata_status === 'ok');
    expect(one(data, 'eth', nft, 14).name).toBe('sur\uFFFDrogate');
    data = await until(multi, 7, (i) => i.name === 'Multi 7');
    expect(one(data, 'eth', multi, 7)).toMatchObject({
      token_type: 'ERC1155',
      contract_name: '',
      contract_symbol: '',
      metadata: { properties: { rarity: 'rare' } },
    });
    await until(multi, 9, (i) => i.name === 'Multi 9');
  });

  it('lists tokens whose metadata cannot be fetched with what is known, and records why', async () => {
    const status = () =>
      db.sql`select network, token_id::int as id, status, error from nft_metadata where token = ${nft.toLowerCase()} and token_id in (5, 6, 11)`;
    const rows = await eventually(
      status,
      (r) => r.length === 6 && r.every((x) => x.status === 'failed'),
      30_000,
    );
    for (const r of rows)
      expect(r.error).toMatch(
        { 5: /ECONNREFUSED/, 6: /answered 500/, 11: /forbidden address/ }[r.id as 5 | 6 | 11],
      );
    const data = (await nfts()).data;
    for (const n of NETWORKS)
      for (const id of [5, 6, 11]) {
        expect(one(data, n, nft, id)).toMatchObject({
          name: '',
          image: '',
          description: '',
          media: [],
          metadata: EMPTY,
          contract_name: 'Test Apes',
          token_id: String(id),
        });
      }
  });

  it('does not fetch again what it has, and fetches a failed one again after a while', async () => {
    const [ones, sixes] = [meta.count('/meta/1.json'), meta.count('/meta/6.json')];
    meta.json('/meta/6.json', { name: 'Six' });
    await nfts();
    await nfts();
    await new Promise((r) => setTimeout(r, 1000));
    expect([meta.count('/meta/1.json'), meta.count('/meta/6.json')]).toEqual([ones, sixes]);
    await db.sql`update nft_metadata set fetched_at = now() - interval '31 minutes' where token = ${nft.toLowerCase()} and token_id = 6`;
    await until(nft, 6, (i) => i.name === 'Six');
  });

  it('fetches everything again with refresh=true', async () => {
    meta.json('/meta/1.json', { name: 'One v2' });
    expect(one((await nfts()).data, 'eth', nft, 1).name).toBe('One');
    await nfts('&refresh=true');
    await until(nft, 1, (i) => i.name === 'One v2');
  });

  it('drops a token once the wallet sends it away', async () => {
    await w.write(nft, inject('contracts').TestERC721.abi, 'transferFrom', [w.address, other, 1n]);
    const res = await eventually(
      () => nfts(),
      (r) => NETWORKS.every((n) => find(r.data, n, nft, 1).length === 0),
      30_000,
    );
    expect(NETWORKS.map((n) => find(res.data, n, nft, 1).length)).toEqual([0, 0]);
    expect(find(res.data, 'eth', nft, 2)).toHaveLength(1);
  });

  it('validates the address and the refresh flag', async () => {
    const get = (q: string) =>
      call(app.baseUrl, 'GET', `/v2/wallet/nfts${q}`, { headers: { apikey } });
    for (const q of [
      '?address=0x123',
      '',
      '?address=0x70997970C51812dc3A010C7d01b50e0d17dc79C9',
      '?address=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ]) {
      expect((await get(q)).json).toMatchObject({ code: 5002, status: 5002 });
    }
    expect((await get(`?address=${w.address}&refresh=maybe`)).json).toMatchObject({ code: 5000 });
    expect((await get(`?address=${randomAddress().toLowerCase()}`)).json).toEqual({
      code: 0,
      message: 'OK',
      data: [],
    });
    expect((await call(app.baseUrl, 'GET', `/v2/wallet/nfts?address=${w.address}`)).status).toBe(
      401,
    );
    const doc = (await call(app.baseUrl, 'GET', '/v2/openapi.json', { headers: { apikey } })).json;
    expect(doc.paths['/wallet/nfts'].get.parameters.map((p: any) => p.name)).toEqual([
      'address',
      'refresh',
    ]);
  });
});
