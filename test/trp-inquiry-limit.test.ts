import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { log } from '../src/log.js';
import { createApiKey } from '../src/keys/keys.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { sendInquiry } from './helpers/travelrule.js';

/**
 * New inquiries a counterparty may send a minute (TOLLGATE_TRP_INQUIRIES_PER_MINUTE): over it,
 * 429 with Retry-After in TRP's answer shape; repeats of a transfer already taken do not count;
 * each counterparty has a rate of its own. Sent as an independent VASP sends them
 * (helpers/trp-peer.ts). A real appliance (API role) and a real Postgres.
 */

const RATE = 30;
const A = {
  uid: '5c1d2e3f-0000-4000-8000-00000000000a',
  token: 'limit-a-token-0123456789abcdef0123',
};
const B = {
  uid: '5c1d2e3f-0000-4000-8000-00000000000b',
  token: 'limit-b-token-0123456789abcdef0123',
};

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  await createApiKey(db.sql, 'backend');
  for (const [v, name] of [
    [A, 'Busy Originator AG'],
    [B, 'Quiet Originator AG'],
  ] as const)
    await upsertVasp(
      db.sql,
      {
        uid: v.uid,
        name,
        website: `https://${v.uid}.example`,
        trp_endpoint: 'https://127.0.0.1:9/trp',
        inbound_token: v.token,
      },
      'cli',
    );
  app = await startTestAppliance(
    db.url,
    { TOLLGATE_TRP_INQUIRIES_PER_MINUTE: String(RATE) },
    { api: true, worker: false, indexer: false, devChain: false },
  );
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const inquiry = (v: typeof A, requestId?: string) =>
  sendInquiry(app.baseUrl, v.token, {
    callback: 'https://127.0.0.1:9/trp/callback',
    vaspName: 'an originator',
    requestId,
  });

it("takes a minute's worth of a counterparty's new inquiries, then answers 429 with Retry-After until its rate allows one more", async () => {
  const first: Awaited<ReturnType<typeof inquiry>>[] = [];
  for (let i = 0; i < RATE; i += 5)
    first.push(...(await Promise.all(Array.from({ length: 5 }, () => inquiry(A)))));
  expect(first.map((r) => r.status)).toEqual(first.map(() => 200));

  const warn = vi.spyOn(log, 'warn');
  const over = await inquiry(A);
  expect(over.status).toBe(429);
  // Said once, naming the counterparty by its directory id; a second refusal is not said again.
  expect((await inquiry(A)).status).toBe(429);
  const said = warn.mock.calls.filter(([, msg]) => String(msg).includes('more new TRP inquiries'));
  expect(said).toEqual([
    [
      { counterparty: A.uid, per_minute: RATE },
      'a counterparty sends more new TRP inquiries than its rate: they are refused with 429 until it slows down (TOLLGATE_TRP_INQUIRIES_PER_MINUTE)',
    ],
  ]);
  warn.mockRestore();
  expect(over.json).toEqual({
    code: 4290,
    status: 4290,
    message: expect.stringMatching(
      new RegExp(`^more than ${RATE} new inquiries a minute from this sender: retry in \\d+ s$`),
    ),
  });
  const wait = Number(over.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(over.headers['api-version']).toBe('3.1.0');
  expect(over.headers['request-identifier']).toBe(over.requestId);

  // A repeat of a transfer already taken is answered as before, over the rate or not.
  const repeat = await inquiry(A, first[0]!.requestId);
  expect(repeat.status).toBe(200);
  expect(repeat.json).toEqual({ version: '3.1.0' });
  // Another counterparty is not held to A's rate.
  expect((await inquiry(B)).status).toBe(200);

  // The refused one, sent again once its Retry-After has passed, is taken.
  await new Promise((r) => setTimeout(r, wait * 1000 + 100));
  expect((await inquiry(A, over.requestId)).status).toBe(200);

  const [stored] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from travelrule_transactions where direction = 'incoming'`;
  expect(stored!.n).toBe(RATE + 2);
});
