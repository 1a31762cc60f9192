import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TransactionSql } from '../src/db/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { enqueueConfirmations, retractOrphanedEvents } from '../src/webhooks/events.js';
import {
  claimDueDeliveries,
  freezeAndMarkSent,
  recordAttempts,
  type AttemptResult,
} from '../src/webhooks/outbox.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { expectedEventId } from './helpers/event-id.js';

/**
 * The outbox's operations against a real Postgres, at the edges a fault can leave them in: an
 * attempt in flight when a reorg orphans its event, a worker killed between the POST and its
 * record, and the order a subscription's events are handed out in.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

let n = 0;
/** A streamed address of a key of its own; returns the ids an event insert needs. */
async function subscription() {
  n++;
  const key = await createApiKey(db.sql, `race-${n}`);
  const address = '0x' + String(n).padStart(40, '0');
  const [t] = await db.sql<
    { id: string }[]
  >`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${address}, 'evm', 'http://127.0.0.1:9/h', now()) returning id`;
  return { keyId: key.id, trackedId: t!.id, address };
}

async function insertEvent(
  s: Awaited<ReturnType<typeof subscription>>,
  tx: string,
  confirmed: boolean,
  extra: { body?: string; status?: string } = {},
) {
  const body = extra.body ?? `{"blockNumber":5,"tx":{"hash":"0x${tx}"},"confirmed":${confirmed}}`;
  const [ev] = await db.sql<{ id: string; sequence: string }[]>`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed, body, status)
    values ('stream', ${s.keyId}, ${s.trackedId}, 'eth', ${s.address}, ${'0x' + tx}, 5, '0xb5', ${confirmed}, ${body}, ${extra.status ?? 'pending'})
    returning id, sequence::text`;
  return ev!;
}

const delivered = (id: string): AttemptResult => ({
  id,
  outcome: 'delivered',
  url: 'http://127.0.0.1:9/h',
  status_code: 200,
  duration_ms: 3,
  error: null,
  retry_in_s: 0,
});

/** Claims everything due (other tests' events too) and returns the ids. */
async function claimIds(): Promise<string[]> {
  return (await claimDueDeliveries(db.sql, 1000, 60)).map((e) => e.id);
}

async function releaseAll(): Promise<void> {
  await db.sql`update webhook_events set lease_until = null, next_attempt_at = least(next_attempt_at, now()) where status = 'pending'`;
}

it("numbers a subscription's events in the order they are written", async () => {
  const s = await subscription();
  const a = await insertEvent(s, 'a1', false);
  const b = await insertEvent(s, 'a1', true);
  const c = await insertEvent(s, 'a2', false);
  expect([a.sequence, b.sequence, c.sequence]).toEqual(['1', '2', '3']);
  const other = await subscription();
  expect((await insertEvent(other, 'a1', false)).sequence).toBe('1');
  await db.sql`update webhook_events set status = 'cancelled' where tracked_id in (${s.trackedId}, ${other.trackedId})`;
});

it("hands out a transaction's confirmed event only once its unconfirmed one is settled", async () => {
  const s = await subscription();
  const unconfirmed = await insertEvent(s, 'b1', false);
  const confirmed = await insertEvent(s, 'b1', true);
  const otherTx = await insertEvent(s, 'b2', false);
  let claimed = await claimIds();
  expect(claimed).toContain(unconfirmed.id);
  expect(claimed).toContain(otherTx.id);
  expect(claimed).not.toContain(confirmed.id);
  // Still leased (in flight): the confirmed one waits.
  expect(await claimIds()).not.toContain(confirmed.id);
  await recordAttempts(db.sql, [delivered(unconfirmed.id), delivered(otherTx.id)], 25);
  claimed = await claimIds();
  expect(claimed).toEqual([confirmed.id]);
  await recordAttempts(db.sql, [delivered(confirmed.id)], 25);
});

it('moves an event waiting for one in backoff behind it, and brings it back when that one is settled', async () => {
  const s = await subscription();
  const unconfirmed = await insertEvent(s, 'f1', false);
  const confirmed = await insertEvent(s, 'f1', true);
  expect(await claimIds()).toContain(unconfirmed.id);
  await recordAttempts(
    db.sql,
    [
      {
        ...delivered(unconfirmed.id),
        outcome: 'retry',
        status_code: 503,
        error: 'receiver answered 503',
        retry_in_s: 600,
      },
    ],
    25,
  );
  // The claim that finds the confirmed one waiting moves it to when the unconfirmed one is due.
  expect(await claimIds()).not.toContain(confirmed.id);
  const due = async (id: string) =>
    (
      await db.sql<
        { at: Date }[]
      >`select next_attempt_at as at from webhook_events where id = ${id}`
    )[0]!.at.getTime();
  expect(await due(confirmed.id)).toBe(await due(unconfirmed.id));
  // Given up (or delivered): the confirmed one is due at once, not in ten minutes.
  await db.sql`update webhook_events set next_attempt_at = now(), max_attempts = 2 where id = ${unconfirmed.id}`;
  expect(await claimIds()).toEqual([unconfirmed.id]);
  await recordAttempts(
    db.sql,
    [
      {
        ...delivered(unconfirmed.id),
        outcome: 'retry',
        status_code: 503,
        error: 'receiver answered 503',
        retry_in_s: 600,
      },
    ],
    25,
  );
  expect(await due(confirmed.id)).toBeLessThanOrEqual(Date.now());
  expect(await claimIds()).toEqual([confirmed.id]);
  await recordAttempts(db.sql, [delivered(confirmed.id)], 25);
});

it('looks past the events that wait for ones in flight at the head of the queue', async () => {
  const s = await subscription();
  const firsts: string[] = [];
  const seconds: string[] = [];
  for (let i = 0; i < 30; i++) {
    firsts.push((await insertEvent(s, `c${i}`, false)).id);
    seconds.push((await insertEvent(s, `c${i}`, true)).id);
  }
  const later = await insertEvent(s, 'c99', false);
  expect((await claimDueDeliveries(db.sql, 30, 60, 60)).map((e) => e.id).sort()).toEqual(
    [...firsts].sort(),
  );
  // 30 waiting events at the head, each behind one in flight; the claimable one is past them.
  expect((await claimDueDeliveries(db.sql, 1, 60, 31)).map((e) => e.id)).toEqual([later.id]);
  await recordAttempts(db.sql, [...firsts, later.id].map(delivered), 25);
  expect((await claimIds()).sort()).toEqual([...seconds].sort());
  await recordAttempts(db.sql, seconds.map(delivered), 25);
});

it('retracts at once an orphaned event whose in-flight attempt the receiver took', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'aa', false);
  expect(await claimIds()).toContain(ev.id);
  await freezeAndMarkSent(db.sql, [{ id: ev.id, body: null }]);
  // A reorg while the attempt is in flight: the event stays pending (its outcome is to come) and,
  // as it may reach the receiver, gets its retraction now.
  const retractions = await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  expect(retractions).toBeGreaterThanOrEqual(1);
  const [recorded] = await recordAttempts(db.sql, [delivered(ev.id)], 25);
  expect(recorded).toMatchObject({ status: 'delivered', retractions: 0 }); // the reorg wrote it already
  const rows =
    await db.sql`select removed, status, body, sequence::text from webhook_events where tx_hash = '0xaa' order by removed`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([
    [false, 'delivered'],
    [true, 'pending'],
  ]);
  expect(rows[1]!.body).toBe(
    '{"removed":true,"blockNumber":5,"tx":{"hash":"0xaa"},"confirmed":false}',
  );
  expect(Number(rows[1]!.sequence)).toBeGreaterThan(Number(rows[0]!.sequence));
  // The outcome's attempt to retract it again wrote nothing and took no number: the
  // subscription's next event comes right after (a gap would tell the receiver one is missing).
  const next = await insertEvent(s, 'ac', false);
  expect(Number(next.sequence)).toBe(Number(rows[1]!.sequence) + 1);
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash in ('0xaa', '0xac') and status = 'pending'`;
});

it('numbers an event two transactions write at once only once, leaving no gap', async () => {
  const s = await subscription();
  const first = await insertEvent(s, 'c1', false);
  const write = (tx: TransactionSql) =>
    tx`insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed, body)
       values ('stream', ${s.keyId}, ${s.trackedId}, 'eth', ${s.address}, '0xc2', 5, '0xb5', false, '{}')
       on conflict do nothing returning sequence::text`;
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let firstWrote!: () => void;
  const wrote = new Promise<void>((r) => {
    firstWrote = r;
  });
  const a = db.sql.begin(async (tx) => {
    const rows = await write(tx);
    firstWrote();
    await held;
    return rows.length;
  });
  await wrote;
  const b = db.sql.begin(async (tx) => (await write(tx)).length);
  // The second writer waits on the first (the subscription's counter) before it looks.
  for (let i = 0; ; i++) {
    const [w] = await db.sql`select count(*)::int as n from pg_stat_activity
      where wait_event_type = 'Lock' and query like '%0xc2%'`;
    if (w!.n > 0) break;
    if (i > 500) throw new Error('the second writer never waited');
    await new Promise((r) => setTimeout(r, 10));
  }
  release();
  expect([await a, await b]).toEqual([1, 0]);
  const rows =
    await db.sql`select sequence::text from webhook_events where tracked_id = ${s.trackedId} and tx_hash = '0xc2'`;
  expect(rows.map((r) => r.sequence)).toEqual([String(Number(first.sequence) + 1)]);
  const next = await insertEvent(s, 'c3', false);
  expect(Number(next.sequence)).toBe(Number(first.sequence) + 2);
  await db.sql`update webhook_events set status = 'cancelled' where tracked_id = ${s.trackedId}`;
});

it('retracts when a delivered attempt is recorded after the reorg orphaned the event', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'ab', false);
  // Orphaned by a reorg that ran before this worker marked it sent: no retraction yet.
  await db.sql`update webhook_events set orphaned = true, confirmation_done = true where id = ${ev.id}`;
  const [recorded] = await recordAttempts(db.sql, [delivered(ev.id)], 25);
  expect(recorded).toMatchObject({ status: 'delivered', retractions: 1 });
  const rows =
    await db.sql`select removed, status from webhook_events where tx_hash = '0xab' order by removed`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([
    [false, 'delivered'],
    [true, 'pending'],
  ]);
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash = '0xab' and status = 'pending'`;
});

it('leaves an orphaned event cancelled when its in-flight attempt failed', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'bb', false);
  await db.sql`update webhook_events set orphaned = true, confirmation_done = true where id = ${ev.id}`;
  const [recorded] = await recordAttempts(
    db.sql,
    [
      {
        ...delivered(ev.id),
        outcome: 'retry',
        status_code: 500,
        error: 'receiver answered 500',
        retry_in_s: 2,
      },
    ],
    25,
  );
  expect(recorded).toMatchObject({ status: 'cancelled', gave_up: false });
  const rows = await db.sql`select removed, status from webhook_events where tx_hash = '0xbb'`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([[false, 'cancelled']]);
});

it('retracts an event sent by a worker killed before it recorded the outcome, when its block is orphaned', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'cc', false);
  expect(await claimIds()).toContain(ev.id);
  await freezeAndMarkSent(db.sql, [{ id: ev.id, body: null }]);
  // kill -9 here: the receiver has the body, nothing was recorded, the lease runs out.
  await db.sql`update webhook_events set lease_until = now() - interval '1 second', next_attempt_at = now() - interval '1 second' where id = ${ev.id}`;
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  const rows =
    await db.sql`select removed, status, orphaned from webhook_events where tx_hash = '0xcc' order by removed`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([
    [false, 'cancelled'],
    [true, 'pending'],
  ]);
  // Never sent again: it is no longer due, only its retraction is.
  await releaseAll();
  const claimed = await claimDueDeliveries(db.sql, 1000, 60);
  expect(claimed.map((e) => e.id)).not.toContain(ev.id);
  expect(claimed.filter((e) => e.tx_hash === '0xcc').map((e) => e.removed)).toEqual([true]);
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash = '0xcc' and status = 'pending'`;
});

it('does not retract an event whose every attempt was recorded as failed, when its block is orphaned', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'e7', false);
  expect(await claimIds()).toContain(ev.id);
  await freezeAndMarkSent(db.sql, [{ id: ev.id, body: null }]);
  await recordAttempts(
    db.sql,
    [
      {
        ...delivered(ev.id),
        outcome: 'retry',
        status_code: 500,
        error: 'receiver answered 500',
        retry_in_s: 600,
      },
    ],
    25,
  );
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  const rows =
    await db.sql`select removed, status from webhook_events where tx_hash = '0xe7' order by removed`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([[false, 'cancelled']]);
});

it('retracts an event whose attempt went out and got no answer, when its block is orphaned', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'e8', false);
  expect(await claimIds()).toContain(ev.id);
  await freezeAndMarkSent(db.sql, [{ id: ev.id, body: null }]);
  await recordAttempts(
    db.sql,
    [
      {
        ...delivered(ev.id),
        outcome: 'retry',
        status_code: null,
        error: 'ETIMEDOUT: no response within 10000 ms',
        retry_in_s: 600,
        in_doubt: true,
      },
    ],
    25,
  );
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  const rows =
    await db.sql`select removed, status from webhook_events where tx_hash = '0xe8' order by removed`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([
    [false, 'cancelled'],
    [true, 'pending'],
  ]);
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash = '0xe8' and status = 'pending'`;
});

it('cancels, and never sends, an orphaned event whose lease ran out before its outcome came', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'dd', false);
  expect(await claimIds()).toContain(ev.id);
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n)); // in flight: stays pending
  expect((await db.sql`select status from webhook_events where id = ${ev.id}`)[0]!.status).toBe(
    'pending',
  );
  await db.sql`update webhook_events set lease_until = now() - interval '1 second', next_attempt_at = now() - interval '1 second' where id = ${ev.id}`;
  expect(await claimIds()).not.toContain(ev.id);
  expect((await db.sql`select status from webhook_events where id = ${ev.id}`)[0]!.status).toBe(
    'cancelled',
  );
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash = '0xdd' and status = 'pending'`;
});

it('does not mark sent an event a reorg orphaned after its claim: it is not to be sent', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'd9', false);
  const other = await insertEvent(s, 'da', false);
  expect(await claimIds()).toEqual(expect.arrayContaining([ev.id, other.id]));
  await db.sql`update webhook_events set orphaned = true, confirmation_done = true where id = ${ev.id}`;
  const frozen = await freezeAndMarkSent(db.sql, [
    { id: ev.id, body: null },
    { id: other.id, body: null },
  ]);
  expect([...frozen.keys()]).toEqual([other.id]);
  const [row] = await db.sql`select in_doubt, sent_at from webhook_events where id = ${ev.id}`;
  expect(row).toEqual({ in_doubt: 0, sent_at: null });
  await recordAttempts(db.sql, [delivered(other.id)], 25);
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash in ('0xd9', '0xda') and status = 'pending'`;
});

it('writes the events of a block that comes back after a reorg again: a new incarnation, a new id, retracted on its own', async () => {
  const s = await subscription();
  const first = await insertEvent(s, 'f5', false);
  await db.sql`update webhook_events set status = 'delivered' where id = ${first.id}`;
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  // The chain goes back to block 5: the indexer writes its events again.
  const again = await insertEvent(s, 'f5', false);
  expect(again.id).not.toBe(first.id);
  const replayed = await db.sql`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
    values ('stream', ${s.keyId}, ${s.trackedId}, 'eth', ${s.address}, '0xf5', 5, '0xb5', false)
    on conflict do nothing returning id`;
  expect(replayed).toEqual([]); // while it stands, a replayed block writes nothing
  await db.sql`update webhook_events set status = 'delivered' where id = ${again.id}`;
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  const rows = await db.sql<
    { id: string; incarnation: number; removed: boolean; orphaned: boolean }[]
  >`select id, incarnation, removed, orphaned from webhook_events where tx_hash = '0xf5' order by sequence`;
  expect(rows.map((r) => [r.incarnation, r.removed, r.orphaned])).toEqual([
    [0, false, true],
    [0, true, true],
    [1, false, true],
    [1, true, true],
  ]);
  expect(new Set(rows.map((r) => r.id)).size).toBe(4);
  const ids = await db.sql<(Parameters<typeof expectedEventId>[0] & { id: string })[]>`
    select id, tracked_id::text, kind, network, tx_hash, block_hash, confirmed, removed, incarnation
    from webhook_events where tx_hash = '0xf5'`;
  for (const r of ids) expect(r.id).toBe(expectedEventId(r));
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash = '0xf5' and status = 'pending'`;
});

it('gives up after the allowed attempts, and a redelivery grants new ones', async () => {
  const s = await subscription();
  const ev = await insertEvent(s, 'ee', false);
  await db.sql`update webhook_events set max_attempts = 2 where id = ${ev.id}`;
  const fail: AttemptResult = {
    ...delivered(ev.id),
    outcome: 'retry',
    status_code: 503,
    error: 'receiver answered 503',
    retry_in_s: 0,
  };
  expect((await recordAttempts(db.sql, [fail], 25))[0]).toMatchObject({
    status: 'pending',
    gave_up: false,
    attempts: 1,
  });
  expect((await recordAttempts(db.sql, [fail], 25))[0]).toMatchObject({
    status: 'failed',
    gave_up: true,
    attempts: 2,
  });
  const { redeliverEvent } = await import('../src/webhooks/outbox.js');
  expect(await redeliverEvent(db.sql, ev.id, 25)).toBe(true);
  const [row] =
    await db.sql`select status, max_attempts, gave_up_at from webhook_events where id = ${ev.id}`;
  expect(row).toMatchObject({ status: 'pending', max_attempts: 27, gave_up_at: null });
  await db.sql`update webhook_events set status = 'cancelled' where id = ${ev.id}`;
});

it('keeps retrying a retraction the receiver failed to take', async () => {
  const s = await subscription();
  await insertEvent(s, 'ff', false, { status: 'delivered' });
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  const [retraction] = await db.sql<
    { id: string }[]
  >`select id from webhook_events where tx_hash = '0xff' and removed`;
  const [recorded] = await recordAttempts(
    db.sql,
    [
      {
        ...delivered(retraction!.id),
        outcome: 'retry',
        status_code: 503,
        error: 'receiver answered 503',
        retry_in_s: 0,
      },
    ],
    25,
  );
  expect(recorded).toMatchObject({ status: 'pending', attempts: 1 });
  expect(await claimIds()).toContain(retraction!.id);
  await db.sql`update webhook_events set status = 'cancelled' where tx_hash = '0xff' and status = 'pending'`;
});

it("numbers confirmations and retractions in the order of the events they follow, whatever the table's order", async () => {
  const s = await subscription();
  const hashes = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
  for (const t of hashes) await insertEvent(s, t, false, { status: 'delivered' });
  // Rows moved in the table (an updated row is written anew): its order is no longer the events'
  // (found by an outside probe: 12 of 60 confirmations of one block were numbered out of order).
  const shuffle = async () => {
    for (const t of ['d1', 'd4', 'd2'])
      await db.sql`update webhook_events set tx_hash = tx_hash || 'x' where tracked_id = ${s.trackedId} and tx_hash = ${`0x${t}`}`;
    await db.sql`update webhook_events set tx_hash = rtrim(tx_hash, 'x') where tracked_id = ${s.trackedId}`;
  };
  const numbered = async (where: 'confirmed' | 'removed') =>
    (
      await db.sql<{ tx_hash: string }[]>`
        select tx_hash from webhook_events where tracked_id = ${s.trackedId} and ${db.sql(where)} order by sequence`
    ).map((r) => r.tx_hash.slice(2));
  await shuffle();
  await db.sql.begin((tx) => enqueueConfirmations(tx, 'eth', 5n));
  expect(await numbered('confirmed')).toEqual(hashes);
  await db.sql`update webhook_events set status = 'delivered', body = coalesce(body, '{"confirmed":true}')
    where tracked_id = ${s.trackedId}`;
  await shuffle();
  await db.sql.begin((tx) => retractOrphanedEvents(tx, 'eth', 4n));
  // One retraction per transaction (of its unconfirmed and confirmed events), in their order.
  expect(await numbered('removed')).toEqual(hashes);
  await db.sql`update webhook_events set status = 'cancelled' where tracked_id = ${s.trackedId} and status = 'pending'`;
});
