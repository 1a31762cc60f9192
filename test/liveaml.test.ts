import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { orphanEventsAbove, recordEvent, type NewLiveAmlEvent } from '../src/liveaml/events.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call, type Reply } from './helpers/http.js';
import { randomAddress } from './helpers/chain.js';

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;
const hook = 'http://127.0.0.1:9/aml';
const streamHook = 'http://127.0.0.1:9/stream';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {}, API_ONLY);
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const newKey = async (name: string) => (await createApiKey(db.sql, name)).apikey;
const post = (key: string, path: string, body: unknown) =>
  call(app.baseUrl, 'POST', path, { headers: { apikey: key }, body: body as object });
const del = (key: string, path: string) =>
  call(app.baseUrl, 'DELETE', path, { headers: { apikey: key } });
const get = (key: string, path: string) =>
  call(app.baseUrl, 'GET', path, { headers: { apikey: key } });
const OK = { code: 0, message: 'OK', data: null };

async function tracked(key: string): Promise<any[]> {
  const res = await get(key, '/v2/liveaml/list?page=1&limit=100');
  expect(res.status).toBe(200);
  return res.json.data;
}
async function streamed(key: string): Promise<any[]> {
  return (await get(key, '/v2/stream/list?page=1&limit=100')).json.data;
}

function expectError(res: Reply, number: number) {
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ code: number, status: number });
  expect(typeof res.json.message).toBe('string');
}

describe('live AML tracking', () => {
  it('creates, updates on a second create, lists and deletes, per key', async () => {
    const [a, b] = [await newKey('a'), await newKey('b')];
    const address = randomAddress();
    const stored = address.toLowerCase();
    expect((await post(a, '/v2/liveaml/create', { address, webhook: hook })).json).toEqual(OK);
    const [first] = await tracked(a);
    expect(first).toEqual({
      address: stored,
      aml_webhook: hook,
      created_at: expect.any(String),
      has_stream: false,
      paused: false,
    });
    expect(new Date(first.created_at).toISOString()).toBe(first.created_at);

    expect(
      (await post(a, '/v2/liveaml/create', { address, webhook: 'http://127.0.0.1:10/other' })).json,
    ).toEqual(OK);
    expect(await tracked(a)).toEqual([{ ...first, aml_webhook: 'http://127.0.0.1:10/other' }]);
    expect(await streamed(a)).toEqual([]); // tracking alone is no stream

    // Key B neither sees nor deletes key A's tracking; its own tracking of the address is separate.
    expect(await tracked(b)).toEqual([]);
    expectError(await del(b, `/v2/liveaml/delete?address=${address}`), 5003);
    expect((await post(b, '/v2/liveaml/create', { address, webhook: hook })).json).toEqual(OK);

    expect((await del(a, `/v2/liveaml/delete?address=${address}`)).json).toEqual(OK);
    expect(await tracked(a)).toEqual([]);
    expectError(await del(a, `/v2/liveaml/delete?address=${address}`), 5003);
    const [row] =
      await db.sql`select count(*)::int as n from tracked_addresses where address = ${stored}`;
    expect(row!.n).toBe(1); // A's row is gone, B's stays
    expect(await tracked(b)).toHaveLength(1);
  });

  it('pages with page_count = ceil(total / limit)', async () => {
    const key = await newKey('pager');
    for (let i = 0; i < 5; i++)
      await post(key, '/v2/liveaml/create', { address: randomAddress(), webhook: hook });
    const p1 = await get(key, '/v2/liveaml/list?page=1&limit=2');
    const p3 = await get(key, '/v2/liveaml/list?page=3&limit=2');
    const p4 = await get(key, '/v2/liveaml/list?page=4&limit=2');
    expect([
      p1.json.page_count,
      p1.json.data.length,
      p3.json.data.length,
      p4.json.data.length,
    ]).toEqual([3, 2, 1, 0]);
    const all = (await get(key, '/v2/liveaml/list?page=1&limit=100')).json;
    expect(all.page_count).toBe(1);
    expect(all.data.map((r: any) => r.address)).toEqual(
      [
        ...p1.json.data,
        ...(await get(key, '/v2/liveaml/list?page=2&limit=2')).json.data,
        ...p3.json.data,
      ].map((r: any) => r.address),
    );
    expect((await get(await newKey('empty'), '/v2/liveaml/list?page=1&limit=10')).json).toEqual({
      ...OK,
      data: [],
      page_count: 0,
    });
  });
});

describe('live AML tracking and streams share the address', () => {
  it('liveaml/create with stream_webhook creates the stream; deleting the stream keeps the tracking', async () => {
    const key = await newKey('with-stream');
    const address = randomAddress();
    expect(
      (
        await post(key, '/v2/liveaml/create', {
          address,
          webhook: hook,
          stream_webhook: streamHook,
        })
      ).json,
    ).toEqual(OK);
    expect(await streamed(key)).toEqual([
      expect.objectContaining({
        address: address.toLowerCase(),
        stream_webhook: streamHook,
        has_stream: true,
      }),
    ]);
    expect(await tracked(key)).toEqual([
      expect.objectContaining({ aml_webhook: hook, has_stream: true }),
    ]);

    // A second create without stream_webhook keeps the stream.
    await post(key, '/v2/liveaml/create', { address, webhook: hook });
    expect(await streamed(key)).toHaveLength(1);

    expect((await del(key, `/v2/stream/delete?address=${address}`)).json).toEqual(OK);
    expect(await streamed(key)).toEqual([]);
    expect(await tracked(key)).toEqual([
      expect.objectContaining({ aml_webhook: hook, has_stream: false }),
    ]);
  });

  it('stream/create with aml_webhook starts tracking; deleting the tracking keeps the stream', async () => {
    const key = await newKey('aml-via-stream');
    const address = randomAddress();
    expect(
      (await post(key, '/v2/stream/create', { address, webhook: streamHook, aml_webhook: hook }))
        .json,
    ).toEqual(OK);
    const [rec] = await tracked(key);
    expect(rec).toEqual({
      address: address.toLowerCase(),
      aml_webhook: hook,
      created_at: expect.any(String),
      has_stream: true,
      paused: false,
    });
    expect(new Date(rec.created_at).toISOString()).toBe(rec.created_at);

    expect((await del(key, `/v2/liveaml/delete?address=${address}`)).json).toEqual(OK);
    expect(await tracked(key)).toEqual([]);
    expect(await streamed(key)).toEqual([
      expect.objectContaining({ stream_webhook: streamHook, has_stream: true }),
    ]);
    // Deleting the stream too removes the row.
    expect((await del(key, `/v2/stream/delete?address=${address}`)).json).toEqual(OK);
    const [row] =
      await db.sql`select count(*)::int as n from tracked_addresses where address = ${address.toLowerCase()}`;
    expect(row!.n).toBe(0);
  });
});

describe('validation', () => {
  let key: string;
  beforeAll(async () => {
    key = await newKey('validation');
  });

  it('refuses invalid or missing addresses with 5002', async () => {
    for (const address of [
      '0x123',
      'not-an-address',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C9',
      '',
      'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
    ]) {
      expectError(await post(key, '/v2/liveaml/create', { address, webhook: hook }), 5002);
    }
    expectError(await post(key, '/v2/liveaml/create', { webhook: hook }), 5002);
    expectError(await del(key, '/v2/liveaml/delete?address=xyz'), 5002);
    expectError(await del(key, '/v2/liveaml/delete'), 5002);
  });

  it('refuses invalid, private or missing webhooks with 5004 (webhook and stream_webhook), creating nothing', async () => {
    const address = randomAddress();
    for (const webhook of [
      'ftp://example.com/x',
      'not a url',
      'http://user:pw@127.0.0.1/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
    ]) {
      expectError(await post(key, '/v2/liveaml/create', { address, webhook }), 5004);
      expectError(
        await post(key, '/v2/liveaml/create', { address, webhook: hook, stream_webhook: webhook }),
        5004,
      );
    }
    expectError(await post(key, '/v2/liveaml/create', { address }), 5004);
    expect(await tracked(key)).toEqual([]);
    expect(await streamed(key)).toEqual([]);
  });

  it('requires page and limit on list and events, page ≥ 1 and limit 1 to 100, else 5000', async () => {
    for (const path of ['/v2/liveaml/list', '/v2/liveaml/events']) {
      for (const q of [
        '',
        '?page=1',
        '?limit=10',
        '?page=0&limit=10',
        '?page=1&limit=101',
        '?page=1&limit=0',
        '?page=abc&limit=1',
        '?page=1&limit=1.5',
      ]) {
        expectError(await get(key, path + q), 5000);
      }
      expect((await get(key, `${path}?page=1&limit=100`)).json).toMatchObject({
        code: 0,
        page_count: 0,
      });
    }
  });

  it('refuses malformed JSON with 5000', async () => {
    expectError(await post(key, '/v2/liveaml/create', '{"address": '), 5000);
    expectError(await post(key, '/v2/liveaml/create', '[1]'), 5000);
  });

  it('documents the routes in the OpenAPI document, paging required', async () => {
    const doc = (await get(key, '/v2/openapi.json')).json;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/liveaml/create',
        '/liveaml/delete',
        '/liveaml/list',
        '/liveaml/events',
      ]),
    );
    expect(
      doc.paths['/liveaml/events'].get.parameters.map((p: any) => [p.name, p.required]),
    ).toEqual([
      ['page', true],
      ['limit', true],
    ]);
  });
});

describe('live AML events', () => {
  const tags = {
    mixer: true,
    direct_mixer: true,
    indirect_mixer: false,
    new_wallet: true,
    indirect_sanctioned: true,
    direct_sanctioned: false,
  };
  const event = (
    trackedId: string,
    n: number,
    over: Partial<NewLiveAmlEvent> = {},
  ): NewLiveAmlEvent => ({
    trackedId,
    network: 'eth',
    txHash: `0x${n.toString(16).padStart(64, '0')}`,
    blockNumber: BigInt(100 + n),
    blockHash: `0x${'b'.repeat(63)}${n % 10}`,
    score: 40 + n,
    tags,
    hashTags: { direct_mixer: true, indirect_mixer: false },
    ...over,
  });
  async function trackedId(key: string, address: string): Promise<string> {
    await post(key, '/v2/liveaml/create', { address, webhook: hook });
    // Addresses are random: one key tracks each.
    const [row] = await db.sql<
      { id: string }[]
    >`select id from tracked_addresses where address = ${address.toLowerCase()}`;
    return row!.id;
  }

  it('lists the spec shape, only indirect_ tags, newest first, paged, per key', async () => {
    const [a, b] = [await newKey('events-a'), await newKey('events-b')];
    const [addrA, addrA2, addrB] = [randomAddress(), randomAddress(), randomAddress()];
    const [ta, ta2, tb] = [
      await trackedId(a, addrA),
      await trackedId(a, addrA2),
      await trackedId(b, addrB),
    ];
    const ids = [];
    for (const [i, t] of [ta, ta2, ta].entries())
      ids.push(await recordEvent(db.sql, event(t, i + 1)));
    await recordEvent(db.sql, event(tb, 9));
    expect(await recordEvent(db.sql, event(ta, 1))).toBeNull(); // the same transaction and block again

    const res = await get(a, '/v2/liveaml/events?page=1&limit=10');
    expect(res.json.page_count).toBe(1);
    expect(res.json.data.map((e: any) => e.id)).toEqual([...ids].reverse());
    expect(res.json.data[0]).toEqual({
      id: ids[2],
      address: addrA.toLowerCase(),
      event: {
        hash: event(ta, 3).txHash,
        tags: { indirect_mixer: false, indirect_sanctioned: true },
        score: 43,
        hash_tags: { direct_mixer: true },
        block_number: 103,
        triggered_by: [],
      },
      created_at: expect.any(String),
    });
    expect(new Date(res.json.data[0].created_at).toISOString()).toBe(res.json.data[0].created_at);
    expect(res.json.data[1].address).toBe(addrA2.toLowerCase());

    const p2 = await get(a, '/v2/liveaml/events?page=2&limit=2');
    expect(p2.json.page_count).toBe(2);
    expect(p2.json.data.map((e: any) => e.id)).toEqual([ids[0]]);

    const forB = (await get(b, '/v2/liveaml/events?page=1&limit=10')).json.data;
    expect(forB.map((e: any) => e.address)).toEqual([addrB.toLowerCase()]);
  });

  it('keeps events after the tracking is deleted, records none for untracked rows, hides orphaned ones', async () => {
    const key = await newKey('events-life');
    const address = randomAddress();
    const t = await trackedId(key, address);
    const network = `net_${Date.now()}`;
    await recordEvent(db.sql, event(t, 1, { network, blockNumber: 10n }));
    await recordEvent(db.sql, event(t, 2, { network, blockNumber: 11n }));

    expect(await orphanEventsAbove(db.sql, network, 10n)).toBe(1);
    const left = (await get(key, '/v2/liveaml/events?page=1&limit=10')).json;
    expect(left.data.map((e: any) => e.event.block_number)).toEqual([10]);
    expect(left.page_count).toBe(1);

    await del(key, `/v2/liveaml/delete?address=${address}`);
    expect(await recordEvent(db.sql, event(t, 3, { network }))).toBeNull();
    expect((await get(key, '/v2/liveaml/events?page=1&limit=10')).json.data).toHaveLength(1);
  });
});
