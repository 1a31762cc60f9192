import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ALL_TAGS } from '../src/aml/tags.js';
import { loadConfig } from '../src/config/index.js';
import { NETWORK_SYMBOLS } from '../src/config/networks.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let key: { id: string; apikey: string };
let beforeIndex: { hash: string; from: string; to: string };
const aml = loadConfig({}).aml;

/** A valid address per network symbol (published addresses, as in test/unit/address.test.ts). */
const SAMPLE: Record<string, string> = {
  eth: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  bsc: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  polygon: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
  avalanche: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7',
  arb: '0x912CE59144191C1204E64559FE8253a0e49E6548',
  op: '0x4200000000000000000000000000000000000042',
  bitcoin: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  litecoin: 'LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz',
  doge: 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD',
  trx: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  xrp: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  solana: '11111111111111111111111111111111',
  ada: 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
  stellar: 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
  sui: '0x0000000000000000000000000000000000000000000000000000000000000002',
  ton: 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF',
  dot: '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5',
  apt: '0x0000000000000000000000000000000000000000000000000000000000000001',
  vet: '0x0000000000000000000000000000456E65726779',
  algo: 'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA',
  atom: 'cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4afc3d27',
  xtz: 'tz1XdRrrqrMfsFKA8iuw53xHzug9ipr6MuHq',
  eos: 'eosio',
};

beforeAll(async () => {
  db = await freshDatabase();
  // Mined before the appliance starts (its start block is the head then): not in the index.
  const early = await fundedWallet('2');
  const to = randomAddress();
  const receipt = await early.send(to, 10n ** 17n);
  beforeIndex = {
    hash: receipt.transactionHash,
    from: early.address.toLowerCase(),
    to: to.toLowerCase(),
  };
  await early.test.mine({ blocks: 2 });
  app = await startTestAppliance(db.url);
  key = await createApiKey(db.sql, 'analyze');
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const get = (path: string) => call(app.baseUrl, 'GET', path, { headers: { apikey: key.apikey } });
const amlOf = async (address: string, network = 'eth') =>
  (await get(`/v2/analyze/aml?address=${address}&network=${network}`)).json;
const indexedUpTo = (block: bigint) =>
  eventually(
    () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
    (r) => r.length > 0 && BigInt(r[0]!.block_number) >= block,
  );

describe('GET /v2/analyze/aml', () => {
  it('validates its parameters', async () => {
    const a = SAMPLE.eth!;
    expect((await get('/v2/analyze/aml?network=eth')).json).toMatchObject({
      code: 5002,
      message: 'address: is required',
    });
    expect((await get(`/v2/analyze/aml?address=${a}`)).json).toMatchObject({
      code: 5000,
      message: 'network: is required',
    });
    expect((await get(`/v2/analyze/aml?address=${a}&network=nope`)).json).toMatchObject({
      code: 5000,
      message: 'network: unknown network symbol',
    });
    expect((await get(`/v2/analyze/aml?address=${a}&network=bitcoin`)).json).toMatchObject({
      code: 5002,
    });
    expect(
      (await get(`/v2/analyze/aml?address=${a.replace('d8dA', 'd8Da')}&network=eth`)).json,
    ).toMatchObject({ code: 5002 }); // EIP-55
    expect(
      (await get(`/v2/analyze/aml?address=${a}&network=eth&webhook=ftp://x.example`)).json,
    ).toMatchObject({ code: 5004 });
    expect(
      (await get(`/v2/analyze/aml?address=${a}&network=eth&webhook=http://10.1.2.3/hook`)).json,
    ).toMatchObject({ code: 5004 });
    expect(
      (
        await get(
          `/v2/analyze/aml?address=${SAMPLE.trx}&network=trx&webhook=http://127.0.0.1:9/hook`,
        )
      ).json,
    ).toMatchObject({ code: 5002 });
    expect(
      (await call(app.baseUrl, 'GET', `/v2/analyze/aml?address=${a}&network=eth`)).status,
    ).toBe(401);
  });

  it.each(NETWORK_SYMBOLS)('%s: answers every tag as a boolean and a score', async (network) => {
    const res = await amlOf(SAMPLE[network]!, network);
    expect(res).toMatchObject({ code: 0, message: 'OK' });
    expect(Object.keys(res.data).sort()).toEqual(['score', 'tags']);
    expect(Object.keys(res.data.tags)).toEqual(ALL_TAGS);
    expect(Object.values(res.data.tags).every((v) => typeof v === 'boolean')).toBe(true);
    expect(Number.isInteger(res.data.score) && res.data.score >= 0 && res.data.score <= 100).toBe(
      true,
    );
    // Only eth is indexed here: elsewhere nothing is known of the address's age.
    expect(res.data.tags.new_wallet).toBe(network === 'eth');
  });

  it('answers from labels on networks it does not index (a shipped OFAC Tron address)', async () => {
    const res = await amlOf('TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre', 'trx');
    expect(res.data.tags.sanctioned).toBe(true);
    expect(res.data.score).toBeGreaterThanOrEqual(aml.thresholds.high);
  });

  it("finds a sanctioned address in any spelling of it (Litecoin's legacy P2SH, Stellar's muxed accounts)", async () => {
    // The shipped OFAC M8yFL6…, asked as 32m72D…: the same script hash with the legacy version.
    const legacy = await amlOf('32m72D2HEycRqfBkaazZcuVpLWq9k3sYdt', 'litecoin');
    expect(legacy.data.tags.sanctioned).toBe(true);
    expect(legacy.data.score).toBe(100);
    // A label of a Stellar account is its muxed addresses' (SEP-23's pair: memo ID 0).
    await db.sql`insert into labels (network, address, category, source, name, lists)
      values ('stellar', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ', 'sanctioned', 'test', 'test', '{}')`;
    const muxed = await get(
      '/v2/analyze/aml?address=MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ&network=stellar&detail=true',
    );
    expect(muxed.json.data.tags.sanctioned).toBe(true);
    expect(muxed.json.data.explanation.tags.sanctioned).toBeDefined();
  });

  it('refuses a query parameter given twice instead of reading one of its values', async () => {
    const listed = 'M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3';
    const twice = await get(
      `/v2/analyze/aml?address=${SAMPLE.litecoin}&address=${listed}&network=litecoin`,
    );
    expect(twice.status).toBe(400);
    expect(twice.json).toEqual({
      code: 5000,
      status: 5000,
      message: 'address: given 2 times in the query string; give it once',
    });
    // The API key too: one of two keys is no key.
    const keys = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?address=${listed}&network=litecoin&apikey=${key.apikey}&apikey=bogus`,
    );
    expect(keys.status).toBe(400);
    expect(keys.json.message).toBe('apikey: given 2 times in the query string; give it once');
  });

  it('starts live AML tracking when a webhook is given', async () => {
    const address = randomAddress();
    const res = await get(
      `/v2/analyze/aml?address=${address}&network=eth&webhook=http://127.0.0.1:9/hook`,
    );
    expect(res.json).toMatchObject({ code: 0, data: { tags: expect.any(Object) } });
    const rows =
      await db.sql`select aml_webhook, family from tracked_addresses where api_key_id = ${key.id} and address = ${address.toLowerCase()}`;
    expect(rows).toEqual([{ aml_webhook: 'http://127.0.0.1:9/hook', family: 'evm' }]);
  });

  it('builds exposure from real transfers on the dev chain: M mixer, A direct, B indirect, C clean', async () => {
    const [a, b, c] = await Promise.all([fundedWallet('1'), fundedWallet('1'), fundedWallet('1')]);
    const [m, d] = [randomAddress(), randomAddress()];
    await db.sql`insert into labels (network, address, category, source) values ('evm', ${m.toLowerCase()}, 'mixer', 'test')`;
    await a.send(m, 1000n);
    await b.send(a.address, 1000n);
    const last = await c.send(d, 1000n);
    await indexedUpTo(last.blockNumber);
    const [rm, ra, rb, rc] = await Promise.all(
      [m, a.address, b.address, c.address].map((x) => amlOf(x)),
    );
    const on = (r: any) =>
      Object.keys(r.data.tags).filter((t) => r.data.tags[t] && t !== 'new_wallet');
    expect([on(rm), on(ra), on(rb), on(rc)]).toEqual([
      ['mixer'],
      ['direct_mixer'],
      ['indirect_mixer'],
      [],
    ]);
    expect(rm.data.score).toBeGreaterThan(ra.data.score);
    expect(ra.data.score).toBeGreaterThan(rb.data.score);
    expect(rb.data.score).toBeGreaterThan(rc.data.score);
  });
});

describe('GET /v2/analyze/tx_detail', () => {
  it('validates its parameters', async () => {
    const h = `0x${'ab'.repeat(32)}`;
    expect((await get(`/v2/analyze/tx_detail?network=eth`)).json).toMatchObject({ code: 5002 });
    expect((await get(`/v2/analyze/tx_detail?hash=${h}`)).json).toMatchObject({ code: 5000 });
    expect((await get(`/v2/analyze/tx_detail?hash=0x12&network=eth`)).json).toMatchObject({
      code: 5002,
    });
    expect((await get(`/v2/analyze/tx_detail?hash=${h}&network=eth`)).json).toMatchObject({
      code: 5002,
      message: 'Transaction not found.',
    });
    expect((await get(`/v2/analyze/tx_detail?hash=${h}&network=bsc`)).json).toMatchObject({
      code: 5000,
    }); // not indexed here
    expect((await get(`/v2/analyze/tx_detail?hash=${h}&network=trx`)).json).toMatchObject({
      code: 5000,
    });
  });

  it('shows an ETH transfer with the AML data of its parties', async () => {
    const w = await fundedWallet('3');
    const to = randomAddress();
    await db.sql`insert into labels (network, address, category, source) values ('eth', ${to.toLowerCase()}, 'mixer', 'test')`;
    const r = await w.send(to, 5n * 10n ** 17n);
    await indexedUpTo(r.blockNumber);
    const block = await w.pub.getBlock({ blockNumber: r.blockNumber });
    const res = await get(`/v2/analyze/tx_detail?hash=${r.transactionHash}&network=eth`);
    expect(res.json).toEqual({
      code: 0,
      message: 'OK',
      data: {
        from: w.address.toLowerCase(),
        to: to.toLowerCase(),
        status: 'Success',
        timestamp: Number(block.timestamp),
        network: 'eth',
        hash: r.transactionHash,
        value: 0.5,
        transfers: [],
        aml_data: {
          tags: expect.any(Object),
          score: expect.any(Number),
          threshold: aml.thresholds,
        },
      },
    });
    const { tags, score } = res.json.data.aml_data;
    expect(tags).toMatchObject({ mixer: true, direct_mixer: true, new_wallet: true }); // recipient mixer, sender exposed
    expect(Object.values(tags).every((v) => v === true)).toBe(true);
    expect(score).toBe(Math.round(100 * (1 - (1 - 0.8) * (1 - 0.1))));
  });

  it('shows an ERC-20 transfer in token units with its name and symbol', async () => {
    const w = await fundedWallet('3');
    const { TestERC20 } = inject('contracts');
    const token = await w.deploy(TestERC20);
    await w.write(token, TestERC20.abi, 'mint', [w.address, 10_000_000n]);
    const to = randomAddress();
    const r = await w.write(token, TestERC20.abi, 'transfer', [to, 7_500_000n]);
    await indexedUpTo(r.blockNumber);
    const res = await get(`/v2/analyze/tx_detail?hash=${r.transactionHash}&network=eth`);
    expect(res.json.data).toMatchObject({
      from: w.address.toLowerCase(),
      to: token.toLowerCase(),
      status: 'Success',
      value: 0,
    });
    expect(res.json.data.transfers).toEqual([
      {
        from: w.address.toLowerCase(),
        to: to.toLowerCase(),
        value: 7.5,
        token_name: 'Test Dollar',
        token_symbol: 'TUSD',
      },
    ]);
    expect(res.json.data.aml_data.tags).toEqual({ new_wallet: true });
  });

  it('asks the node for a transaction older than the index', async () => {
    const [row] = await db.sql`select 1 from evm_transactions where hash = ${beforeIndex.hash}`;
    expect(row).toBeUndefined();
    const res = await get(`/v2/analyze/tx_detail?hash=${beforeIndex.hash}&network=eth`);
    expect(res.json.data).toMatchObject({
      from: beforeIndex.from,
      to: beforeIndex.to,
      status: 'Success',
      value: 0.1,
      transfers: [],
      hash: beforeIndex.hash,
    });
    expect(Number.isInteger(res.json.data.timestamp)).toBe(true);
  });
});
