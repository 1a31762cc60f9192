import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { loadLabelFile } from '../src/aml/labels/load.js';
import { storeLabelFile } from '../src/aml/labels/import.js';
import { createApiKey } from '../src/keys/keys.js';
import { addEdges } from '../src/indexer/edges.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { eventually } from './helpers/eventually.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
let key: { apikey: string; webhook_secret: string };
const dir = mkdtempSync(join(tmpdir(), 'tollgate-rescan-'));

beforeAll(async () => {
  db = await freshDatabase();
  receiver = await new Receiver().start();
  app = await startTestAppliance(db.url);
  key = await createApiKey(db.sql, 'rescan');
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
});

async function importCsv(name: string, rows: string[]) {
  const file = join(dir, name);
  writeFileSync(file, ['address,network,category,name,source', ...rows].join('\n') + '\n');
  return storeLabelFile(db.sql, await loadLabelFile(file));
}

const rescanEvents = () =>
  receiver.received.filter((r) => r.json?.hash === '' && r.json?.block_number === 0);

it('raises a live AML event when a label import alone makes a tracked address risky, once', async () => {
  const tracked = randomAddress();
  const create = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey: key.apikey },
    body: { address: tracked, webhook: receiver.url },
  });
  expect(create.json).toMatchObject({ code: 0 });
  // A counterparty pays the tracked address while nobody is labelled: the check finds nothing.
  const payer = await fundedWallet('1');
  const paid = await payer.send(tracked as `0x${string}`, 5n);
  await eventually(
    () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
    (r) => r.length > 0 && BigInt(r[0]!.block_number) >= paid.blockNumber,
  );
  await eventually(
    () =>
      db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'liveaml_check'`,
    (r) => r[0]!.n === 0,
  );
  expect(receiver.received).toHaveLength(0);

  // An import labels the payer: the tracked address is now directly exposed.
  const first = await importCsv('intel.csv', [
    `${payer.address},evm,stealing_attack,drainer,intel`,
  ]);
  expect(first.counts.inserted).toBe(1);
  const [hook] = await receiver.waitFor(() => rescanEvents().length >= 1);
  new Webhook(key.webhook_secret).verify(hook!.body, hook!.headers as Record<string, string>);
  expect(hook!.json).toMatchObject({
    address: tracked.toLowerCase(),
    hash: '',
    block_number: 0,
    hash_tags: { direct_stealing_attack: true },
    // Who brings it: the payer, labelled by the import (its source).
    triggered_by: [
      {
        tag: 'direct_stealing_attack',
        counterparty: payer.address.toLowerCase(),
        labelled: payer.address.toLowerCase(),
        sources: ['intel'],
      },
    ],
  });
  expect(hook!.json.score).toBeGreaterThan(0);
  expect(hook!.json.tags.direct_stealing_attack).toBe(true);
  const events = await call(app.baseUrl, 'GET', '/v2/liveaml/events?page=1&limit=10', {
    headers: { apikey: key.apikey },
  });
  expect(events.json.data).toEqual([
    expect.objectContaining({
      address: tracked.toLowerCase(),
      event: expect.objectContaining({
        hash: '',
        block_number: 0,
        hash_tags: { direct_stealing_attack: true },
        triggered_by: hook!.json.triggered_by,
      }),
    }),
  ]);

  // The same file again changes nothing; another label that does not touch it says nothing about it.
  expect(
    (await importCsv('intel.csv', [`${payer.address},evm,stealing_attack,drainer,intel`])).counts
      .inserted,
  ).toBe(0);
  await importCsv('other.csv', [`${randomAddress()},evm,mixer,unrelated,intel`]);
  await eventually(
    () =>
      db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'liveaml_rescan'`,
    (r) => r[0]!.n === 0,
  );
  // A new category on the tracked address itself is new: announced, with only that tag.
  await importCsv('self.csv', [`${tracked},evm,mixer,self,intel`]);
  await receiver.waitFor(() => rescanEvents().length >= 2);
  const second = rescanEvents()[1]!;
  expect(second.json.hash_tags).toEqual({ mixer: true });
  // A label on the address itself comes through no counterparty.
  expect(second.json.triggered_by).toEqual([]);
  expect(rescanEvents()).toHaveLength(2);
  // Alerts of a label change keep the live AML webhook's documented contract too.
  expectWebhookContract(
    'liveAml',
    receiver.received.map((r) => r.json),
  );
});

it('applies a label on a hub through the job, chunk by chunk, and the rescan then raises what it brings', async () => {
  const tracked = randomAddress().toLowerCase();
  const create = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey: key.apikey },
    body: { address: tracked, webhook: receiver.url },
  });
  expect(create.json).toMatchObject({ code: 0 });
  // A hub with more counterparties than aml.exposure_defer_above (1,000), one of which has dealt
  // with the tracked address: a label on the hub is the exposure_apply job's, in two chunks.
  const hub = randomAddress().toLowerCase();
  const near = randomAddress().toLowerCase();
  const others = Array.from({ length: 1_200 }, () => randomAddress().toLowerCase());
  await db.sql.begin((tx) =>
    addEdges(tx, 'eth', [
      {
        timestamp: 1_800_000_000n,
        pairs: [
          [tracked, near] as const,
          [near, hub] as const,
          ...others.map((o) => [o, hub] as const),
        ],
      },
    ]),
  );
  expect((await importCsv('hub.csv', [`${hub},evm,mixer,hub,intel`])).counts.inserted).toBe(1);
  const forTracked = () => rescanEvents().filter((r) => r.json?.address === tracked);
  await receiver.waitFor(() => forTracked().length > 0);
  const [hook] = forTracked();
  expect(hook!.json).toMatchObject({
    hash_tags: { indirect_mixer: true },
    triggered_by: [
      expect.objectContaining({ tag: 'indirect_mixer', counterparty: near, labelled: hub }),
    ],
  });
  // The webhook can come before the job's last chunk: a rescan started by the import itself sees
  // the chunk that holds `near` once it is applied. The job then finishes the rest.
  await eventually(
    () => db.sql`select count(*)::int as n from exposure_pending`,
    (r) => r[0]!.n === 0,
  );
});

it('announces on a label change only the tags of the categories it changed: a tag a transaction brought is left to its own check', async () => {
  const rescansDone = () =>
    eventually(
      () =>
        db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier in ('liveaml_rescan', 'exposure_apply')`,
      (r) => r[0]!.n === 0,
    );
  const tracked = randomAddress().toLowerCase();
  const darkweb = randomAddress().toLowerCase();
  await importCsv('darkweb.csv', [`${darkweb},evm,darkweb_transactions,a market,intel`]);
  await rescansDone();
  const create = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey: key.apikey },
    body: { address: tracked, webhook: receiver.url },
  });
  expect(create.json).toMatchObject({ code: 0 });
  // The tracked address deals with the market (its counterparty edge is written, as the indexer
  // does in a block's transaction), and the transaction's live AML check has not run yet when an
  // unrelated import (another category) comes: direct_darkweb_transactions is new to the
  // address, but the import did not bring it.
  await db.sql.begin((tx) =>
    addEdges(tx, 'eth', [{ timestamp: 1_800_000_100n, pairs: [[tracked, darkweb] as const] }]),
  );
  await importCsv('sanctions.csv', [`${randomAddress()},evm,sanctioned,elsewhere,intel`]);
  await rescansDone();
  const forTracked = () => rescanEvents().filter((r) => r.json?.address === tracked);
  expect(forTracked()).toEqual([]);
  // It is remembered, so it is not announced by a later change either.
  const [state] = await db.sql<{ risk_tags: string[] }[]>`
    select s.risk_tags from liveaml_state s join tracked_addresses t on t.id = s.tracked_id
    where t.address = ${tracked}`;
  expect(state!.risk_tags).toContain('direct_darkweb_transactions');

  // A change of a category the address is exposed to now is announced, with that tag alone.
  await importCsv('kyc.csv', [`${darkweb},evm,fake_kyc,sells accounts too,intel`]);
  await receiver.waitFor(() => forTracked().length >= 1);
  expect(forTracked().map((r) => r.json.hash_tags)).toEqual([{ direct_fake_kyc: true }]);
  await rescansDone();
  expect(
    await db.sql`select category from liveaml_rescan_categories`,
    'every queued category taken by a rescan that finished',
  ).toEqual([]);
});
