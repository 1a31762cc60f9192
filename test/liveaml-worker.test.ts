import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../src/keys/keys.js';
import { loadConfig } from '../src/config/index.js';
import { runLiveAmlCheck, type LiveAmlCheck } from '../src/liveaml/check.js';
import { enqueueLiveAmlChecks } from '../src/liveaml/enqueue-checks.js';
import { ALL_TAGS } from '../src/aml/tags.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let aml: Receiver;
let streams: Receiver;
let key: { apikey: string; webhook_secret: string };
let mixer: Awaited<ReturnType<typeof fundedWallet>>;
let plain: Awaited<ReturnType<typeof fundedWallet>>;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url);
  aml = await new Receiver().start();
  streams = await new Receiver().start();
  key = await createApiKey(db.sql, 'liveaml-worker');
  [mixer, plain] = [await fundedWallet(), await fundedWallet()];
  await db.sql`insert into labels (network, address, category, source) values ('evm', ${mixer.address.toLowerCase()}, 'mixer', 'test')`;
});
afterAll(async () => {
  await app?.stop();
  await aml?.stop();
  await streams?.stop();
  await db?.drop();
});

/** Tracks `address` for live AML (and streams it, so a clean transaction is seen to be indexed). */
async function track(address: string): Promise<string> {
  const res = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey: key.apikey },
    body: { address, webhook: aml.url, stream_webhook: streams.url },
  });
  expect(res.json).toEqual({ code: 0, message: 'OK', data: null });
  const [row] = await db.sql<
    { id: string }[]
  >`select id::text from tracked_addresses where address = ${address.toLowerCase()}`;
  return row!.id;
}

const amlFor = (hash: string) => aml.received.filter((r) => r.json?.hash === hash);

function verify(r: Received) {
  new Webhook(key.webhook_secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id']!,
    'webhook-timestamp': r.headers['webhook-timestamp']!,
    'webhook-signature': r.headers['webhook-signature']!,
  });
}

async function checkOf(trackedId: string, hash: string): Promise<LiveAmlCheck> {
  const [b] = await db.sql<{ block_number: string; block_hash: string }[]>`
    select block_number::text, block_hash from evm_transactions where network = 'eth' and hash = ${hash}`;
  return {
    trackedId,
    network: 'eth',
    txHash: hash,
    blockNumber: BigInt(b!.block_number),
    blockHash: b!.block_hash,
  };
}

const counts = async (hash: string) =>
  (
    await db.sql<{ events: number; webhooks: number }[]>`
  select (select count(*)::int from liveaml_events where tx_hash = ${hash}) as events,
    (select count(*)::int from webhook_events where kind = 'liveaml' and tx_hash = ${hash}) as webhooks`
  )[0]!;

describe('live AML risk worker on the EVM dev chain', () => {
  const target = randomAddress();
  let trackedId: string;
  let hash: `0x${string}`;

  it('sends a signed live AML webhook for ETH received from a mixer', async () => {
    trackedId = await track(target);
    const receipt = await mixer.send(target, 10n ** 17n);
    hash = receipt.transactionHash;
    await aml.waitFor(() => amlFor(hash).length > 0);
    const [r] = amlFor(hash);
    verify(r!);
    // The spec's fields, and the subscription's sequence (additive; the first event is 1).
    expect(Object.keys(r!.json).sort()).toEqual([
      'address',
      'block_number',
      'created_at',
      'hash',
      'hash_tags',
      'score',
      'sequence',
      'tags',
      'triggered_by',
    ]);
    expect(r!.body.startsWith('{"sequence":')).toBe(true);
    expect(r!.json).toMatchObject({
      address: target.toLowerCase(),
      hash,
      block_number: Number(receipt.blockNumber),
    });
    expect(r!.json.hash_tags).toEqual({ direct_mixer: true });
    // Which counterparty brought the tag: the labelled sender itself, one hop away.
    const sender = mixer.address.toLowerCase();
    expect(r!.json.triggered_by).toEqual([
      { tag: 'direct_mixer', counterparty: sender, labelled: sender, sources: ['test'] },
    ]);
    expect(Object.keys(r!.json.tags)).toEqual(ALL_TAGS);
    expect(r!.json.tags.direct_mixer).toBe(true);
    expect(r!.json.score).toBeGreaterThan(0);
    expect(new Date(r!.json.created_at).toISOString()).toBe(r!.json.created_at);
    expect(r!.headers['webhook-id']).toMatch(/^msg_/);
    expectWebhookContract('liveAml', [r!.json]);
  });

  it("lists the event with only indirect_ tags and the transaction's hash_tags", async () => {
    const res = await call(app.baseUrl, 'GET', '/v2/liveaml/events?page=1&limit=50', {
      headers: { apikey: key.apikey },
    });
    const mine = res.json.data.filter((e: any) => e.event.hash === hash);
    expect(mine).toHaveLength(1);
    const [e] = mine;
    expect(e.address).toBe(target.toLowerCase());
    expect(Object.keys(e.event.tags).length).toBeGreaterThan(0);
    expect(Object.keys(e.event.tags).every((t) => t.startsWith('indirect_'))).toBe(true);
    expect(e.event.hash_tags).toMatchObject({ direct_mixer: true });
    expect(e.event.triggered_by).toEqual(amlFor(hash)[0]!.json.triggered_by);
    expect(e.created_at).toBe(amlFor(hash)[0]!.json.created_at);
    expect(e.event.score).toBe(amlFor(hash)[0]!.json.score);
  });

  it('raises nothing for a transfer from an unlabeled address', async () => {
    const clean = randomAddress();
    const cleanId = await track(clean);
    const receipt = await plain.send(clean, 10n ** 15n);
    const h = receipt.transactionHash;
    // The stream delivery shows the block is indexed, so its check was enqueued; then wait for it to finish.
    await streams.waitFor((all) => all.some((r) => r.json?.tx?.hash === h));
    await eventually(
      () => db.sql`select 1 from graphile_worker.jobs where key like ${`aml:${cleanId}:${h}:%`}`,
      (rows) => rows.length === 0,
    );
    expect(await counts(h)).toEqual({ events: 0, webhooks: 0 });
    expect(await runLiveAmlCheck(deps(), await checkOf(cleanId, h))).toBe('clean');
    expect(amlFor(h)).toHaveLength(0);
  });

  it('adds nothing when the check is enqueued or run again', async () => {
    const check = await checkOf(trackedId, hash);
    expect(await counts(hash)).toEqual({ events: 1, webhooks: 1 });
    // Enqueued twice in one block transaction: one job (job key).
    await db.sql.begin(async (tx) => {
      const opts = {
        table: 'evm_tx_addresses',
        family: 'evm',
        network: 'eth',
        blocks: [{ number: check.blockNumber, hash: check.blockHash }],
      } as const;
      await enqueueLiveAmlChecks(tx, opts);
      await enqueueLiveAmlChecks(tx, opts);
      const jobs =
        await tx`select 1 from graphile_worker.jobs where key = ${`aml:${trackedId}:${hash}:${check.blockHash}`}`;
      expect(jobs).toHaveLength(1);
    });
    expect(await runLiveAmlCheck(deps(), check)).toBe('duplicate');
    await eventually(
      () =>
        db.sql`select 1 from graphile_worker.jobs where key like ${`aml:${trackedId}:${hash}:%`}`,
      (rows) => rows.length === 0,
    );
    expect(await counts(hash)).toEqual({ events: 1, webhooks: 1 });
    expect(amlFor(hash)).toHaveLength(1);
    // Sent once: no confirmed copy is ever enqueued for a live AML webhook.
    const [row] =
      await db.sql`select confirmed, confirmation_done from webhook_events where kind = 'liveaml' and tx_hash = ${hash}`;
    expect(row).toEqual({ confirmed: false, confirmation_done: true });
  });

  it('skips a block that is not canonical', async () => {
    const check = await checkOf(trackedId, hash);
    expect(await runLiveAmlCheck(deps(), { ...check, blockHash: '0x' + '0'.repeat(64) })).toBe(
      'skipped',
    );
  });

  it('names the counterparty and the labelled address behind an indirect tag', async () => {
    // plain receives from the mixer, then pays a fresh tracked address: two hops from the label.
    await mixer.send(plain.address, 10n ** 15n);
    const far = randomAddress();
    await track(far);
    const receipt = await plain.send(far, 10n ** 15n);
    const h = receipt.transactionHash;
    await aml.waitFor(() => amlFor(h).length > 0);
    const [r] = amlFor(h);
    expect(r!.json.hash_tags).toEqual({ indirect_mixer: true });
    expectWebhookContract('liveAml', [r!.json]);
    expect(r!.json.triggered_by).toEqual([
      {
        tag: 'indirect_mixer',
        counterparty: plain.address.toLowerCase(),
        labelled: mixer.address.toLowerCase(),
        sources: ['test'],
      },
    ]);
    // detail=true explains the tag the same way, with the value exchanged with the counterparty.
    const explained = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=eth&address=${far}&detail=true`,
      { headers: { apikey: key.apikey } },
    );
    expect(explained.json.data.tags.indirect_mixer).toBe(true);
    expect(explained.json.data.explanation.labels_version).toMatch(/^labels:[0-9a-f]{16}$/);
    expect(explained.json.data.explanation.scoring_config).toMatch(/^aml:[0-9a-f]{16}$/);
    expect(explained.json.data.explanation.tags.indirect_mixer).toEqual({
      level: 'indirect',
      hops: 2,
      counterparty_count: 1,
      counterparties: [
        {
          address: plain.address.toLowerCase(),
          labelled: mixer.address.toLowerCase(),
          sources: [{ source: 'test', name: '' }],
          transactions: 1,
          sent: '0',
          received: '0.001',
          share: 1,
        },
      ],
    });
  });

  it('explains a direct tag with detail=true; without it the spec shape; another value is refused', async () => {
    const explained = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=eth&address=${target}&detail=true`,
      { headers: { apikey: key.apikey } },
    );
    const sender = mixer.address.toLowerCase();
    expect(explained.json.data.explanation.tags.direct_mixer).toEqual({
      level: 'direct',
      hops: 1,
      counterparty_count: 1,
      counterparties: [
        {
          address: sender,
          labelled: sender,
          sources: [{ source: 'test', name: '' }],
          transactions: 1,
          sent: '0',
          received: '0.1',
          share: 1,
        },
      ],
    });
    const plainAnswer = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=eth&address=${target}`,
      {
        headers: { apikey: key.apikey },
      },
    );
    expect(Object.keys(plainAnswer.json.data).sort()).toEqual(['score', 'tags']);
    const bad = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=eth&address=${target}&detail=yes`,
      { headers: { apikey: key.apikey } },
    );
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe(5000);
    expect(bad.json.message).toMatch(/detail/);
  });

  it('sent only bodies that keep the documented liveAml and streamEvm contracts', () => {
    expectWebhookContract(
      'liveAml',
      aml.received.map((r) => r.json),
    );
    expectWebhookContract(
      'streamEvm',
      streams.received.map((r) => r.json),
    );
  });
});

function deps() {
  const config = loadConfig({ DATABASE_URL: db.url });
  return { sql: db.sql, aml: config.aml, webhookMaxAttempts: config.webhook_max_attempts };
}
