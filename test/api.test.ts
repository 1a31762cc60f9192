import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { randomAddress } from './helpers/chain.js';
import { eventually } from './helpers/eventually.js';

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let keyA: string;
let keyB: string;
const hook = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {}, API_ONLY);
  keyA = (await createApiKey(db.sql, 'a')).apikey;
  keyB = (await createApiKey(db.sql, 'b')).apikey;
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  call(app.baseUrl, 'GET', path, { headers });

function expectError(res: { status: number; json: any }, httpStatus: number, number: number) {
  expect(res.status).toBe(httpStatus);
  expect(res.json, res.json?.message).toMatchObject({ code: number, status: number });
  expect(typeof res.json.message).toBe('string');
  expect(res.json.message).not.toMatch(/at .*\.ts:|select |insert |postgres/i);
}

describe('authentication', () => {
  it('accepts the key as query parameter, header, basic-auth username and body field (JSON or form)', async () => {
    expect((await get(`/v2/stream/list?apikey=${keyA}`)).json).toMatchObject({
      code: 0,
      message: 'OK',
    });
    expect((await get('/v2/stream/list', { apikey: keyA })).json).toMatchObject({
      code: 0,
      message: 'OK',
    });
    const basic = 'Basic ' + Buffer.from(`${keyA}:`).toString('base64');
    expect((await get('/v2/stream/list', { authorization: basic })).json).toMatchObject({
      code: 0,
    });
    const viaBody = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      body: { apikey: keyA, address: randomAddress(), webhook: hook },
    });
    expect(viaBody.json).toEqual({ code: 0, message: 'OK', data: null });
    // A form body (what `curl -d apikey=…` sends) carries the key and the fields alike.
    const address = randomAddress();
    const form = (body: string) =>
      call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const viaForm = await form(
      new URLSearchParams({ apikey: keyA, address, webhook: hook }).toString(),
    );
    expect(viaForm.json).toEqual({ code: 0, message: 'OK', data: null });
    const listed = await get('/v2/stream/list?limit=100', { apikey: keyA });
    expect(listed.json.data.map((s: { address: string }) => s.address)).toContain(
      address.toLowerCase(),
    );
    // A field given twice is ambiguous: refused, not guessed.
    const twice = await form(
      `apikey=${keyA}&address=${address}&address=${randomAddress()}&webhook=x`,
    );
    expectError(twice, 400, 5000);
    expect(twice.json.message).toBe('Form field "address" is given more than once.');
    expectError(await form(`apikey=${keyA}&address=%00&webhook=x`), 400, 5000);
    // A JSON key given twice, the same (the second webhook was stored; found by an outside probe).
    const jsonTwice = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: keyA },
      body: `{"address":"${address}","webhook":"${hook}","webhook":"http://127.0.0.1:9/other"}`,
    });
    expectError(jsonTwice, 400, 5000);
    expect(jsonTwice.json.message).toBe(
      'The body gives "webhook" more than once: give each field once.',
    );
    // JSON sent as a form (curl -d without its Content-Type) is said to be so, with the key in
    // the header (it was "address: is required").
    const asForm = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', apikey: keyA },
      body: JSON.stringify({ address, webhook: hook }),
    });
    expectError(asForm, 400, 5000);
    expect(asForm.json.message).toMatch(/^The body is JSON but its Content-Type says a form/);
  });

  it('refuses a key given with different values in two places, and reads basic auth only without one', async () => {
    // The query's key was taken over the header's, the header's over a body's (found by an
    // outside probe): a proxy or a log reading the other saw another key.
    const bogus = 'tg_bogus_key_for_the_test';
    for (const res of [
      await get(`/v2/stream/list?apikey=${keyA}`, { apikey: bogus }),
      await get(`/v2/stream/list?apikey=${bogus}`, { apikey: keyA }),
      await get(`/v2/stream/list?apikey=${keyA}`, { apikey: keyB }),
      await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: keyA },
        body: { apikey: bogus, address: randomAddress(), webhook: hook },
      }),
    ]) {
      expectError(res, 401, 4010);
      expect(res.json.message).toMatch(
        /^API key given with different values in the (query|header), (header|body): send one key, in one place\.$/,
      );
    }
    // The same key twice is one key.
    expect((await get(`/v2/stream/list?apikey=${keyA}`, { apikey: keyA })).status).toBe(200);
    // Two apikey headers (Node joins them with a comma) are two keys, whichever they are.
    for (const twice of [
      [keyA, bogus],
      [keyA, keyA],
    ]) {
      const res = await call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey: twice } });
      expectError(res, 401, 4010);
      expect(res.json.message).toBe(
        'The apikey header was given more than once (or holds a comma): send one key, in one header.',
      );
    }
    // An Authorization header beside a key (a proxy's own login) is not read as one.
    const proxyLogin = 'Basic ' + Buffer.from('gateway:secret').toString('base64');
    expect((await get('/v2/stream/list', { apikey: keyA, authorization: proxyLogin })).status).toBe(
      200,
    );
    expectError(await get('/v2/stream/list', { authorization: proxyLogin }), 401, 4010);
  });

  it('answers 401 with the error body for no key, a wrong key, and a revoked key', async () => {
    expectError(await get('/v2/stream/list'), 401, 4010);
    expectError(await get('/v2/stream/list', { apikey: 'tg_nope' }), 401, 4010);
    expectError(await get('/v2/openapi.json'), 401, 4010);
    const { apikey, id } = await createApiKey(db.sql, 'revoked');
    await db.sql`update api_keys set revoked_at = now() where id = ${id}`;
    expectError(await get('/v2/stream/list', { apikey }), 401, 4010);
  });

  it('refuses a key as soon as it is revoked, although this process has it in memory', async () => {
    const { apikey, id } = await createApiKey(db.sql, 'soon revoked');
    // Used, so the API process holds it (src/keys/cache.ts) …
    for (let i = 0; i < 3; i++) expect((await get('/v2/stream/list', { apikey })).status).toBe(200);
    // … revoked elsewhere (as the CLI or the dashboard does): the change's notification empties
    // the cache, long before the entries' 30 s would run out.
    await db.sql`update api_keys set revoked_at = now() where id = ${id}`;
    const refused = await eventually(
      () => get('/v2/stream/list', { apikey }),
      (r) => r.status === 401,
      5_000,
    );
    expectError(refused, 401, 4010);
  });

  it('stores keys only as hashes', async () => {
    const rows = await db.sql`select key_hash from api_keys`;
    for (const r of rows) expect([keyA, keyB]).not.toContain(r.key_hash);
    const [hit] = await db.sql`select count(*)::int as n from api_keys where key_hash = ${keyA}`;
    expect(hit!.n).toBe(0);
  });
});

describe('streams', () => {
  it('takes from_block: null as not given (no replay), as an absent optional field', async () => {
    const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: keyA },
      body: { address: randomAddress(), webhook: hook, from_block: null },
    });
    expect(res.json).toEqual({ code: 0, message: 'OK', data: null });
    expect(res.headers['x-tollgate-replayed']).toBeUndefined();
  });

  it('creates, updates on a second create, lists and deletes, per key', async () => {
    const address = randomAddress();
    const h = { apikey: keyA };
    expect(
      (
        await call(app.baseUrl, 'POST', '/v2/stream/create', {
          headers: h,
          body: { address, webhook: hook },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(app.baseUrl, 'POST', '/v2/stream/create', {
          headers: h,
          body: { address, webhook: 'http://127.0.0.1:10/other' },
        })
      ).status,
    ).toBe(200);
    const list = await get('/v2/stream/list?limit=100', h);
    const mine = list.json.data.filter((r: any) => r.address === address.toLowerCase());
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      stream_webhook: 'http://127.0.0.1:10/other',
      has_stream: true,
    });
    expect(new Date(mine[0].created_at).toISOString()).toBe(mine[0].created_at);
    expect(list.json.page_count).toBeGreaterThanOrEqual(1);

    // Key B neither sees nor deletes key A's stream.
    const listB = await get('/v2/stream/list', { apikey: keyB });
    expect(listB.json.data.some((r: any) => r.address === address.toLowerCase())).toBe(false);
    expectError(
      await call(app.baseUrl, 'DELETE', `/v2/stream/delete?address=${address}`, {
        headers: { apikey: keyB },
      }),
      400,
      5003,
    );

    const del = await call(app.baseUrl, 'DELETE', `/v2/stream/delete?address=${address}`, {
      headers: h,
    });
    expect(del.json).toEqual({ code: 0, message: 'OK', data: null });
    expectError(
      await call(app.baseUrl, 'DELETE', `/v2/stream/delete?address=${address}`, { headers: h }),
      400,
      5003,
    );
  });

  it('pages with page_count', async () => {
    const { apikey } = await createApiKey(db.sql, 'pager');
    for (let i = 0; i < 5; i++) {
      await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey },
        body: { address: randomAddress(), webhook: hook },
      });
    }
    const p1 = await get('/v2/stream/list?page=1&limit=2', { apikey });
    const p3 = await get('/v2/stream/list?page=3&limit=2', { apikey });
    const p4 = await get('/v2/stream/list?page=4&limit=2', { apikey });
    expect(p1.json.page_count).toBe(3);
    expect(p1.json.data).toHaveLength(2);
    expect(p3.json.data).toHaveLength(1);
    expect(p4.json.data).toHaveLength(0);
    expect((await get('/v2/stream/list', { apikey })).json.data).toHaveLength(5); // default limit 50
  });
});

describe('validation', () => {
  const h = () => ({ apikey: keyA });
  it('refuses invalid addresses with 5002', async () => {
    for (const address of [
      '0x123',
      'not-an-address',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C9' /* bad checksum */,
      '',
    ]) {
      expectError(
        await call(app.baseUrl, 'POST', '/v2/stream/create', {
          headers: h(),
          body: { address, webhook: hook },
        }),
        400,
        5002,
      );
    }
    const absent = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: h(),
      body: { webhook: hook },
    });
    expectError(absent, 400, 5002);
    expect(absent.json.message).toBe('address: is required');
    // A field of the wrong type is named as such (not "is required"), without its value.
    for (const [address, given] of [
      [1, 'a number'],
      [null, 'null'],
      [true, 'a boolean'],
      [['0xabc'], 'an array'],
      [{ a: 1 }, 'an object'],
    ] as const) {
      const wrong = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: h(),
        body: { address, webhook: hook },
      });
      expectError(wrong, 400, 5002);
      expect(wrong.json.message).toBe(`address: expected a string, not ${given}`);
    }
    // A body that is not a JSON object says so, with the general number.
    // `null` too (it read as no body: "address: is required", 5002; found by an outside probe).
    for (const body of ['[]', '"str"', '123', '[{"address":"0xabc"}]', 'null']) {
      for (const path of ['/v2/stream/create', '/v2/liveaml/create', '/v2/travelrule/create_tx']) {
        const notObject = await call(app.baseUrl, 'POST', path, { headers: h(), body });
        expectError(notObject, 400, 5000);
        expect(notObject.json.message, `${path} ${body}`).toMatch(/must be a JSON object/);
      }
    }
    // stream/delete answers 5002 with the spec's own message; the reason is in `detail`.
    const bad = await call(app.baseUrl, 'DELETE', '/v2/stream/delete?address=xyz', {
      headers: h(),
    });
    expectError(bad, 400, 5002);
    expect(bad.json).toEqual({
      code: 5002,
      status: 5002,
      message: 'Invalid Address.',
      detail: expect.any(String),
    });
    const none = await call(app.baseUrl, 'DELETE', '/v2/stream/delete?address=no-address!', {
      headers: h(),
    });
    expect(none.json.detail).toBe(
      'Invalid Address: not an EVM or Bitcoin-family address (a 0x… address, base58check or bech32).',
    );
    // An EVM address says what is wrong with it (here a typo in its EIP-55 letter case).
    const typo = await call(
      app.baseUrl,
      'DELETE',
      '/v2/liveaml/delete?address=0x70997970c51812dc3A010C7d01b50e0d17dc79C8',
      { headers: h() },
    );
    expectError(typo, 400, 5002);
    expect(typo.json.message).toBe(
      'Invalid Address: EIP-55 checksum mismatch in a mixed-case address.',
    );
    const missing = await call(app.baseUrl, 'DELETE', '/v2/stream/delete', { headers: h() });
    expectError(missing, 400, 5002);
    expect(missing.json).toMatchObject({
      message: 'Invalid Address.',
      detail: 'address: is required',
    });
  });

  it('refuses a body field the route does not take, naming those it takes; apikey is taken in the body', async () => {
    const { apikey } = await createApiKey(db.sql, 'fields');
    const address = randomAddress();
    // A misspelt optional field was ignored: OK, and no stream made.
    const typo = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
      headers: { apikey },
      body: { address, webhook: hook, stream_webhok: hook },
    });
    expectError(typo, 400, 5000);
    expect(typo.json.message).toBe(
      'stream_webhok: not a field of POST /liveaml/create, which takes address, webhook, stream_webhook, from_block (and apikey)',
    );
    expect(
      await db.sql`select 1 from tracked_addresses where address = ${address.toLowerCase()}`,
    ).toHaveLength(0);
    // Nothing of a field's name that is not a name goes into the message.
    const odd = await call(app.baseUrl, 'POST', '/v2/stream/pause', {
      headers: { apikey },
      body: { address, 'select * from api_keys': 1 },
    });
    expectError(odd, 400, 5000);
    expect(odd.json.message).toBe(
      'The body has a field POST /stream/pause does not take: it takes address (and apikey)',
    );
    const inBody = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
      body: { apikey, address, webhook: hook },
    });
    expect(inBody.json).toEqual({ code: 0, message: 'OK', data: null });
  });

  it('refuses a stream no indexed network would ever call, and addresses of networks it cannot stream', async () => {
    const { apikey } = await createApiKey(db.sql, 'families');
    // This appliance indexes eth alone: a Bitcoin-family address's stream would never fire (it
    // was taken with OK; found by an outside probe). test/utxo-stream.test.ts streams them where
    // a Bitcoin-family network is indexed.
    for (const [address, networks] of [
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'bitcoin'],
      ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'bitcoin, litecoin'],
      ['ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8', 'litecoin'],
    ]) {
      for (const path of ['/v2/stream/create', '/v2/liveaml/create']) {
        const res = await call(app.baseUrl, 'POST', path, {
          headers: { apikey },
          body: { address, webhook: hook },
        });
        expectError(res, 400, 5002);
        expect(res.json.message).toBe(
          `Invalid Address: this appliance indexes no network this address is on (${networks}; indexed here: eth), so its webhook would never be called.`,
        );
      }
    }
    const analyzed = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=bitcoin&address=bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4&webhook=${encodeURIComponent(hook)}`,
      { headers: { apikey } },
    );
    expectError(analyzed, 400, 5002);
    expect(
      await db.sql`select 1 from tracked_addresses t join api_keys k on k.id = t.api_key_id where k.name = 'families'`,
    ).toHaveLength(0);
    // Analysed without tracking, a mainnet address is: a test network's is not (bitcoin is not
    // indexed here, so the symbol means its mainnet).
    const mainnet = await call(
      app.baseUrl,
      'GET',
      '/v2/analyze/aml?network=bitcoin&address=bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      { headers: { apikey } },
    );
    expect(mainnet.json.code).toBe(0);
    for (const [network, address] of [
      ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
      ['bitcoin', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
      ['litecoin', 'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r'],
      [
        'ada',
        'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae',
      ],
      ['ton', 'kQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPgpP'],
    ]) {
      const res = await call(
        app.baseUrl,
        'GET',
        `/v2/analyze/aml?network=${network}&address=${address}`,
        { headers: { apikey } },
      );
      expectError(res, 400, 5002);
      expect(res.json.message, address).toMatch(/^Invalid Address: a test network's address/);
    }
    const tron = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey },
      body: { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', webhook: hook },
    });
    expectError(tron, 400, 5002);
    expect(tron.json.message).toMatch(
      /streams cover EVM and Bitcoin-family addresses; this is a trx address/,
    );
    // A malformed Litecoin bech32 address is said to be one, not an EOS account name (which
    // `ltc1qabc` also is, and read as).
    for (const path of ['/v2/stream/create', '/v2/liveaml/create']) {
      const ltc = await call(app.baseUrl, 'POST', path, {
        headers: { apikey },
        body: { address: 'ltc1qabc', webhook: hook },
      });
      expectError(ltc, 400, 5002);
      expect(ltc.json.message).toMatch(
        /^Invalid Address: a malformed litecoin address \(bech32 checksum mismatch or malformed bech32\)\.$/,
      );
    }
    // Each endpoint says what is wrong as /analyze/aml does, and names its own feature (found by
    // an outside probe: a generic "not an EVM or Bitcoin-family address", "streams cover" from
    // live AML, a testnet address called bitcoin).
    const refused = async (method: 'GET' | 'POST', path: string, address: string) => {
      const res = await call(
        app.baseUrl,
        method,
        method === 'GET' ? `${path}?address=${encodeURIComponent(address)}` : path,
        {
          headers: { apikey },
          ...(method === 'POST'
            ? { body: path.endsWith('/create') ? { address, webhook: hook } : { address } }
            : {}),
        },
      );
      expectError(res, 400, 5002);
      return (res.json.detail ?? res.json.message) as string;
    };
    const evm = randomAddress();
    for (const path of ['/v2/stream/create', '/v2/liveaml/create', '/v2/stream/pause'])
      expect(await refused('POST', path, ` ${evm}`)).toBe(
        'Invalid Address: address contains whitespace.',
      );
    expect(
      await refused('POST', '/v2/stream/create', 'BC1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'),
    ).toBe('Invalid Address: a malformed bitcoin address (mixed-case bech32 address).');
    for (const path of ['/v2/liveaml/create', '/v2/liveaml/pause'])
      expect(await refused('POST', path, 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toMatch(
        /live AML tracking covers EVM and Bitcoin-family addresses; this is a trx address/,
      );
    expect(
      await refused('POST', '/v2/stream/create', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'),
    ).toBe(
      "Invalid Address: this appliance indexes no network this address is on (a test network's address, bitcoin; indexed here: eth), so its webhook would never be called.",
    );
    // A Litecoin MWEB address is refused saying why (it was "not base58").
    const mweb =
      'ltcmweb1qqgrscygkrvsz2230xsunu8ea4xqzu4xhzfugkjwyxd5mvpgf8nmlnq6qtxn8h3y7aaq8e6qmvcv5hhh5jgvqtwvd4yj6tgsq4g79ec8nug7l9qcaqgn';
    expect(await refused('POST', '/v2/stream/create', mweb)).toMatch(
      /^Invalid Address: a Litecoin MWEB address \(ltcmweb1…\): MWEB payments show no address on chain/,
    );
    const mwebAnalysed = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=litecoin&address=${mweb}`,
      { headers: { apikey } },
    );
    expectError(mwebAnalysed, 400, 5002);
    expect(mwebAnalysed.json.message).toMatch(/a Litecoin MWEB address/);
    // The wallet routes keep the spec's message and say why in `detail`.
    const typo = 'address=0x70997970c51812dc3A010C7d01b50e0d17dc79C8';
    for (const path of [
      `/v2/wallet/nfts?${typo}`,
      `/v2/wallet/transactions?${typo}&page=1&limit=10`,
    ]) {
      const res = await call(app.baseUrl, 'GET', path, { headers: { apikey } });
      expectError(res, 400, 5002);
      expect(res.json).toMatchObject({
        message: 'Invalid Address.',
        detail: 'Invalid Address: EIP-55 checksum mismatch in a mixed-case address.',
      });
    }
    // Tron's hex form is the same account as its T… form.
    const tronHex = await call(
      app.baseUrl,
      'GET',
      '/v2/analyze/aml?network=trx&address=410e6b8e34dc115a2848f585851af23d99d09b8463',
      { headers: { apikey } },
    );
    const tronBase58 = await call(
      app.baseUrl,
      'GET',
      '/v2/analyze/aml?network=trx&address=TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre',
      { headers: { apikey } },
    );
    expect(tronHex.json.code).toBe(0);
    expect(tronHex.json.data).toEqual(tronBase58.json.data);
  });

  it('refuses invalid and private webhooks with 5004', async () => {
    const address = randomAddress();
    for (const webhook of [
      'ftp://example.com/x',
      'not a url',
      'http://user:pw@127.0.0.1/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://192.168.0.10/',
      'http://100.64.0.1/',
      'http://[::ffff:10.0.0.1]/',
      'http://localhost.invalid/',
    ]) {
      const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: h(),
        body: { address, webhook },
      });
      expectError(res, 400, 5004);
      // The spec's message for stream/create, whatever the reason; the reason in `detail`.
      expect(res.json.message).toBe('Invalid webhook.');
      expect(res.json.detail).toMatch(/webhook /);
    }
    const missing = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: h(),
      body: { address },
    });
    expectError(missing, 400, 5004);
    expect(missing.json).toMatchObject({
      message: 'Invalid webhook.',
      detail: 'webhook: is required',
    });
    expectError(
      await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: h(),
        body: { address, webhook: hook, aml_webhook: 'http://10.0.0.1/' },
      }),
      400,
      5004,
    );
  });

  it('refuses out-of-range pages and limits with the error body', async () => {
    expectError(await get('/v2/stream/list?page=0', h()), 400, 5000);
    expectError(await get('/v2/stream/list?limit=101', h()), 400, 5000);
    expectError(await get('/v2/stream/list?limit=0', h()), 400, 5000);
    expectError(await get('/v2/stream/list?page=abc', h()), 400, 5000);
    expectError(await get('/v2/stream/list?page=1.5', h()), 400, 5000);
  });

  it('refuses malformed JSON and wrong types with 400', async () => {
    expectError(
      await call(app.baseUrl, 'POST', '/v2/stream/create', { headers: h(), body: '{"address": ' }),
      400,
      5000,
    );
    expectError(
      await call(app.baseUrl, 'POST', '/v2/stream/create', { headers: h(), body: '[1,2]' }),
      400,
      5000,
    );
    expectError(
      await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: h(),
        body: { address: 42, webhook: hook },
      }),
      400,
      5002,
    );
  });

  it('takes only uncompressed UTF-8 bodies, and strings that UTF-8 can hold', async () => {
    // Found by an outside probe: a gzip body was "malformed JSON", plain JSON labelled gzip was
    // taken, and bad bytes or a lone surrogate were stored as U+FFFD (two references differing
    // only there became the same).
    const body = JSON.stringify({ address: randomAddress(), webhook: hook });
    for (const [encoding, bytes, named] of [
      ['gzip', gzipSync(body), 'gzip'],
      ['gzip', body, 'gzip'],
      ['BR', body, 'br'],
      ['identity, gzip', body, 'gzip'],
    ] as const) {
      const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { ...h(), 'content-encoding': encoding },
        body: bytes,
      });
      expectError(res, 415, 5000);
      expect(res.json.message).toBe(
        `Content-Encoding ${named} is not supported: send the body uncompressed.`,
      );
    }
    const identity = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { ...h(), 'content-encoding': 'identity' },
      body,
    });
    expect(identity.json).toMatchObject({ code: 0 });
    // Labelled as something else than JSON or a form, a body is not read as JSON (text/plain,
    // XML and multipart were; found by an outside probe). JSON types, and none, are taken.
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { ...h(), 'content-type': type },
        body: JSON.stringify({ address: randomAddress(), webhook: hook }),
      });
      expectError(res, 415, 5000);
      expect(res.json.message).toBe(
        `Content-Type ${type} is not taken: send the body as JSON with Content-Type: application/json (or as a form, application/x-www-form-urlencoded).`,
      );
    }
    // ('' stands for none: the helper labels a body JSON unless told otherwise.)
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json', '']) {
      const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { ...h(), 'content-type': type },
        body: JSON.stringify({ address: randomAddress(), webhook: hook }),
      });
      expect(res.json, String(type)).toMatchObject({ code: 0 });
    }
    const prefix = Buffer.from(`{"address":"${randomAddress()}","webhook":"${hook}","x":"`);
    const badBytes = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: h(),
      body: Buffer.concat([prefix, Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    });
    expectError(badBytes, 400, 5000);
    expect(badBytes.json.message).toBe('The body is not valid UTF-8.');
    for (const half of ['\\ud800', '\\udfff', 'a\\ud83d']) {
      const lone = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: h(),
        body: `{"address":"${randomAddress()}","webhook":"${hook}","x":"${half}"}`,
      });
      expectError(lone, 400, 5000);
      expect(lone.json.message).toMatch(/half of a UTF-16 surrogate pair/);
    }
    // A whole pair (an emoji, escaped) is text like any other: the body is read, and its field
    // x is then refused as a field stream/create does not take.
    const pair = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: h(),
      body: `{"address":"${randomAddress()}","webhook":"${hook}","x":"\\ud83d\\ude00"}`,
    });
    expectError(pair, 400, 5000);
    expect(pair.json.message).toBe(
      'x: not a field of POST /stream/create, which takes address, webhook, aml_webhook, from_block (and apikey)',
    );
  });

  it('answers bodies over the limit with 413 JSON', async () => {
    const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: h(),
      body: JSON.stringify({ address: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expectError(res, 413, 4130);
  });
});

describe('the HTTP surface', () => {
  it('tells every cache to keep none of its answers: success, refusal, error', async () => {
    // The key may travel in an `apikey` header or the query, which a shared cache does not take
    // for credentials; an answer kept there would be served again, personal data and all.
    const answers = [
      await get('/v2/stream/list', { apikey: keyA }),
      await get(`/v2/stream/list?apikey=${keyA}`),
      await get('/v2/stream/list'),
      await get('/v2/stream/list?page=0', { apikey: keyA }),
      await get('/v2/nope', { apikey: keyA }),
      await get('/v2/openapi.json', { apikey: keyA }),
      await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: keyA },
        body: { address: 'nope', webhook: hook },
      }),
      // Answered by the body limit, before any route (found by a README check).
      await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: keyA },
        body: JSON.stringify({ address: 'x'.repeat(1024 * 1024 + 10) }),
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 400, 404, 200, 400, 413]);
    for (const r of answers) expect(r.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown paths with 404 JSON', async () => {
    expectError(await get('/v2/nope', { apikey: keyA }), 404, 4040);
    expectError(await get('/elsewhere'), 404, 4040);
  });

  it('refuses a query parameter the route does not take, saying which it takes', async () => {
    const a = randomAddress();
    const filter = await get(
      `/v2/wallet/transactions?address=${a}&page=1&limit=5&network=polygon`,
      {
        apikey: keyA,
      },
    );
    expectError(filter, 400, 5000);
    expect(filter.json.message).toBe(
      'network: not a parameter of GET /wallet/transactions, which takes address, page, limit (and apikey) in the query',
    );
    // A POST route's field in the query read as missing from the body.
    const create = await call(app.baseUrl, 'POST', `/v2/stream/create?address=${a}`, {
      headers: { apikey: keyA },
      body: { webhook: hook },
    });
    expectError(create, 400, 5000);
    expect(create.json.message).toBe(
      'address: not a parameter of POST /stream/create, which takes its fields in the JSON body, and only apikey in the query',
    );
    expect((await get('/v2/webhook/endpoints?verbose=1', { apikey: keyA })).json.message).toBe(
      'verbose: not a parameter of GET /webhook/endpoints, which takes no query parameter but apikey',
    );
    // The key in the query is taken on every route, and the route's own parameters as before.
    expect((await get(`/v2/stream/list?apikey=${keyA}&page=1`)).status).toBe(200);
  });

  it('answers a path of the API asked with another method 405, naming the methods it takes', async () => {
    const list = await call(app.baseUrl, 'POST', '/v2/stream/list', {
      headers: { apikey: keyA, 'content-type': 'application/json' },
      body: '{}',
    });
    expectError(list, 405, 4050);
    expect(list.headers.allow).toBe('GET, HEAD');
    expect(list.json.message).toBe('/v2/stream/list takes GET, HEAD, not POST.');
    const create = await call(app.baseUrl, 'GET', '/v2/stream/create', {
      headers: { apikey: keyA },
    });
    expectError(create, 405, 4050);
    expect(create.headers.allow).toBe('POST');
    // One path, three routes (the Travel Rule webhook: get, set, delete).
    const hookPath = await call(app.baseUrl, 'PUT', '/v2/travelrule/webhook', {
      headers: { apikey: keyA },
    });
    expect(hookPath.status).toBe(405);
    expect(String(hookPath.headers.allow).split(', ').sort()).toEqual([
      'DELETE',
      'GET',
      'HEAD',
      'POST',
    ]);
    expect(
      (await call(app.baseUrl, 'DELETE', '/v2/openapi.json', { headers: { apikey: keyA } })).headers
        .allow,
    ).toBe('GET, HEAD');
    // Without a key the key is what is missing, as for any /v2 path; an unknown path stays a 404.
    expect((await call(app.baseUrl, 'POST', '/v2/stream/list')).status).toBe(401);
    expectError(
      await call(app.baseUrl, 'POST', '/v2/stream/nope', { headers: { apikey: keyA } }),
      404,
      4040,
    );
  });

  it('serves health, readiness and the OpenAPI document', async () => {
    expect((await get('/healthz')).json).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect([200, 503]).toContain(ready.status);
    expect(ready.json.database).toBe(true);
    const doc = await get('/v2/openapi.json', { apikey: keyA });
    expect(doc.json.openapi).toBe('3.1.0');
    expect(doc.json.info.description).toContain('100 the highest risk in every output');
    expect(Object.keys(doc.json.paths)).toEqual(
      expect.arrayContaining(['/stream/create', '/stream/delete', '/stream/list']),
    );
    expect(doc.json.paths['/stream/list'].get.parameters.map((p: any) => p.name)).toEqual([
      'page',
      'limit',
    ]);
    expect(
      doc.json.paths['/stream/create'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['address', 'webhook']);
  });

  it('answers what the HTTP parser refuses in the error shape, as JSON, never a bare status line', async () => {
    // Raw bytes over TLS, as a fuzzer or a broken client sends them; everything the server writes.
    const raw = (bytes: string) =>
      new Promise<string>((resolve) => {
        const socket = connectTls(
          { port: app.apiPort!, host: '127.0.0.1', rejectUnauthorized: false },
          () => socket.write(bytes),
        );
        let data = '';
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
        setTimeout(() => socket.destroy(), 5000);
      });
    const parsed = (answer: string) => {
      const [head, body] = answer.split('\r\n\r\n');
      return { head: head!, json: JSON.parse(body!) };
    };
    const cases = [
      ['HELLO\r\n\r\n', 400, 'Malformed HTTP request.'],
      [
        'GET /v2/stream/list HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        400,
        'Malformed HTTP request.',
      ],
      [
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'Request headers larger than 16 KB.',
      ],
    ] as const;
    for (const [bytes, status, message] of cases) {
      const { head, json } = parsed(await raw(bytes));
      expect(head, bytes.slice(0, 30)).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head.toLowerCase()).toContain('content-type: application/json');
      expect(head.toLowerCase()).toContain('connection: close');
      expect(head.toLowerCase()).toContain('cache-control: no-store');
      expect(json).toEqual({ code: 5000, status: 5000, message });
    }
    // What the parser takes but no URL can be made of: an HTTP/1.1 request without Host (RFC
    // 9112 3.2: a 400), a Host that is no host name, a backslash in the path. Each was Node's or
    // the adapter's bare 400 with no body (found by an outside probe).
    const unusable = [
      ['GET /healthz HTTP/1.1\r\n\r\n', 'A Host header is required.'],
      // Two Host headers (Node kept the first, a proxy may route by the other; found by an
      // outside probe).
      [
        'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
        'More than one Host header: send one.',
      ],
      ['GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n', 'Malformed request URL or Host header.'],
      ['GET /v2\\stream/list HTTP/1.1\r\nHost: x\r\n\r\n', 'Malformed request URL or Host header.'],
    ] as const;
    for (const [bytes, message] of unusable) {
      const { head, json } = parsed(await raw(bytes));
      expect(head, bytes.slice(0, 30)).toMatch(/^HTTP\/1.1 400 /);
      expect(head.toLowerCase()).toContain('content-type: application/json');
      expect(head.toLowerCase()).toContain('cache-control: no-store');
      expect(json).toEqual({ code: 5000, status: 5000, message });
    }
    // A version this server does not speak: 505, whether Node's parser takes it (2.0) or refuses
    // it (1.2 and 3.0 were a 400 "Malformed HTTP request"; found by an outside probe).
    for (const v of ['2.0', '1.2', '3.0']) {
      const version = parsed(await raw(`GET /healthz HTTP/${v}\r\nHost: x\r\n\r\n`));
      expect(version.head, v).toMatch(/^HTTP\/1.1 505 /);
      expect(version.json).toEqual({
        code: 5000,
        status: 5000,
        message: `HTTP/${v} is not supported: send HTTP/1.1.`,
      });
    }
    // A version that is not one at all stays a malformed request.
    expect(parsed(await raw('GET /healthz HTTP/x.y\r\nHost: x\r\n\r\n')).head).toMatch(
      /^HTTP\/1.1 400 /,
    );
    // HTTP/1.0 has no Host requirement: such a request is served.
    expect(await raw('GET /healthz HTTP/1.0\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 200 [\s\S]*\{"status":"ok"\}$/,
    );
    // A body whose chunked framing breaks (a chunk size that is not hex): the request the app
    // has is refused at once, with one answer, not left waiting for a body that never ends
    // (found by an outside probe: a 503 blaming the database after 20 s, then a second answer).
    const chunked = (path: string, headers = '') =>
      raw(
        `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nZZ\r\n`,
      );
    for (const answer of [
      await chunked('/v2/stream/create', `apikey: ${keyA}\r\n`),
      await chunked('/v2/stream/create'),
      await chunked('/healthz'),
    ]) {
      expect(answer.match(/HTTP\/1\.1 /g), answer).toHaveLength(1);
      const { head, json } = parsed(answer);
      expect(head).toMatch(/^HTTP\/1.1 400 /);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(json).toEqual({ code: 5000, status: 5000, message: 'Malformed HTTP request.' });
    }
    // An expectation the server cannot meet: 417, in the error shape too.
    const expectation = parsed(
      await raw(
        'POST /v2/stream/create HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}',
      ),
    );
    expect(expectation.head).toMatch(/^HTTP\/1.1 417 /);
    expect(expectation.head.toLowerCase()).toContain('connection: close');
    expect(expectation.head.toLowerCase()).toContain('cache-control: no-store');
    expect(expectation.json).toEqual({
      code: 5000,
      status: 5000,
      message: 'Expect: only 100-continue is supported.',
    });
    // A well-formed request, then a malformed one on the same connection: the first answer whole,
    // then the refusal.
    const both = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nHELLO\r\n\r\n');
    expect(both).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"status":"ok"\}HTTP\/1\.1 400 /);
    expect(both.endsWith('{"code":5000,"status":5000,"message":"Malformed HTTP request."}')).toBe(
      true,
    );
  });

  it('closes connections that trickle their headers (slowloris) with 408, serving others meanwhile', {
    timeout: 90_000,
  }, async () => {
    // Each sends a byte of its request line every 500 ms and never finishes its headers.
    const trickle = () =>
      new Promise<string>((resolve) => {
        const bytes = 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200);
        let i = 0;
        let data = '';
        const socket = connectTls(
          { port: app.apiPort!, host: '127.0.0.1', rejectUnauthorized: false },
          () => {
            const timer = setInterval(() => {
              if (i < bytes.length && !socket.destroyed) socket.write(bytes[i++]!);
            }, 500);
            socket.on('close', () => clearInterval(timer));
          },
        );
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
      });
    const slow = Array.from({ length: 5 }, trickle);
    // Served meanwhile.
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await get('/healthz')).json).toEqual({ status: 'ok' });
    for (const answer of await Promise.all(slow)) {
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1.1 408 /);
      expect(head!.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body!)).toEqual({
        code: 5000,
        status: 5000,
        message: 'The request was not received in time.',
      });
    }
  });

  it('never gives data over plain HTTP', async () => {
    const port = app.apiPort!;
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /v2/stream/list?apikey=${keyA} HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
      setTimeout(() => socket.destroy(), 3000);
    });
    expect(answer).not.toContain('"code":0');
    expect(answer).not.toContain('stream_webhook');
  });
});

describe('behind a TLS-terminating proxy (TOLLGATE_TRUST_PROXY)', () => {
  it('serves only requests a configured proxy marks as https', async () => {
    const proxied = await startTestAppliance(
      db.url,
      { TOLLGATE_TRUST_PROXY: '127.0.0.1/32' },
      API_ONLY,
    );
    try {
      const base = `http://127.0.0.1:${proxied.apiPort}`;
      expectError(
        await call(base, 'GET', '/v2/stream/list', { headers: { apikey: keyA } }),
        403,
        4030,
      );
      const ok = await call(base, 'GET', '/v2/stream/list', {
        headers: { apikey: keyA, 'x-forwarded-proto': 'https' },
      });
      expect(ok.json).toMatchObject({ code: 0 });
    } finally {
      await proxied.stop();
    }
  });

  it('ignores forwarded headers from a peer that is not a configured proxy', async () => {
    // The proxy is elsewhere: this test's client (loopback) is a direct client, whatever it sends.
    const proxied = await startTestAppliance(
      db.url,
      { TOLLGATE_TRUST_PROXY: '10.200.0.1/32' },
      API_ONLY,
    );
    try {
      const base = `http://127.0.0.1:${proxied.apiPort}`;
      expectError(
        await call(base, 'GET', '/v2/stream/list', {
          headers: { apikey: keyA, 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.200.0.1' },
        }),
        403,
        4030,
      );
    } finally {
      await proxied.stop();
    }
  });

  it('refuses the old `true`, naming the setting and what it is now', async () => {
    await expect(
      startTestAppliance(db.url, { TOLLGATE_TRUST_PROXY: 'true' }, API_ONLY),
    ).rejects.toThrow(/TOLLGATE_TRUST_PROXY.*CIDR/s);
  });
});
