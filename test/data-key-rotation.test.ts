import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql, TransactionSql } from '../src/db/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { beginEnrolment, MFA_SECRET_COLUMN } from '../src/operators/index.js';
import { createOperator } from '../src/operators/operators.js';
import {
  decodeDataKey,
  makeKeyring,
  openBytes,
  sealBytes,
  type Keyring,
} from '../src/travelrule/crypto.js';
import { createTransaction } from '../src/travelrule/lifecycle.js';
import { addNote, listNotes, NOTE_COLUMN } from '../src/travelrule/casework.js';
import { IVMS101_COLUMN, type SealedColumn } from '../src/travelrule/rekey.js';
import { callbackToken } from '../src/travelrule/callback-token.js';
import { findByCallbackToken, readPayload } from '../src/travelrule/store.js';
import { findTravelAddress, issueTravelAddress } from '../src/travelrule/travel-addresses.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { travelBody } from './helpers/travelrule.js';

/**
 * `tollgate data-key rotate` and `status` against real Postgres, through the real CLI: every
 * sealed column (Travel Rule payloads, operators' TOTP secrets, casework notes) is made under key A, then
 * re-sealed under B with A configured as old; nothing may become unreadable on the way, a kill -9
 * mid-way included, and afterwards B alone opens every row to the same plaintext bytes, and the
 * Travel Addresses and callback URLs A made still lead where they did.
 */

const TRANSFERS = 400;
const OPERATORS = 3;
const NOTES = 7;
const TRAVEL_ADDRESSES = 2;
/** Tokens handed out while key A was current: Travel Addresses (token → row), a callback URL. */
const travelAddressTokens = new Map<string, { id: string; address: string }>();
let callbackTokenA = '';
let callbackTarget = '';
const SEALED = TRANSFERS + OPERATORS + NOTES;
const A = randomBytes(32).toString('base64');
const B = randomBytes(32).toString('base64');
const keyA = decodeDataKey(A, 'A');
const keyB = decodeDataKey(B, 'B');
const ringA = makeKeyring(keyA);
const ringBA = makeKeyring(keyB, [keyA]);
const ringB = makeKeyring(keyB);
const B_WITH_A_OLD = { TOLLGATE_DATA_KEY: B, TOLLGATE_DATA_KEYS_OLD: A };

let db: TestDatabase;
/** The plaintext bytes sealed in each row, by table then id. */
const plain = new Map<string, Map<string, Buffer>>([
  [IVMS101_COLUMN.table, new Map()],
  [MFA_SECRET_COLUMN.table, new Map()],
  [NOTE_COLUMN.table, new Map()],
]);
const COLUMNS = [IVMS101_COLUMN, MFA_SECRET_COLUMN, NOTE_COLUMN];
/** The transaction each note is on. */
const noteOn = new Map<string, string>();

async function sealedRows(c: SealedColumn) {
  return db.sql.unsafe<{ id: string; ciphertext: Buffer; nonce: Buffer; key_id: string }[]>(
    `select ${c.id}::text as id, ${c.ciphertext} as ciphertext, ${c.nonce} as nonce,
       ${c.keyId} as key_id from ${c.table} order by 1`,
  );
}

/** Opens every sealed row with `ring`; returns the key ids found, counted. Throws on any failure. */
async function openEverything(ring: Keyring): Promise<Record<string, number>> {
  const byKey: Record<string, number> = {};
  for (const c of COLUMNS) {
    const rows = await sealedRows(c);
    expect(rows.length).toBe(plain.get(c.table)!.size);
    for (const r of rows) {
      const opened = openBytes(
        ring,
        c.context(r.id),
        { ciphertext: r.ciphertext, nonce: r.nonce, keyId: r.key_id },
        c.what(r.id),
      );
      expect(opened.equals(plain.get(c.table)!.get(r.id)!)).toBe(true);
      byKey[r.key_id] = (byKey[r.key_id] ?? 0) + 1;
    }
  }
  return byKey;
}

beforeAll(async () => {
  db = await freshDatabase();
  const apiKeyId = (await createApiKey(db.sql, 'rotation')).id;
  for (let i = 0; i < TRANSFERS; i++) {
    const body = travelBody(`rot-${i}`);
    const ivms101 = { originator: body.originator, beneficiary: body.beneficiary, n: i };
    const { id } = await createTransaction(db.sql, ringA, {
      apiKeyId,
      direction: 'outgoing',
      transactionRef: `rot-${i}`,
      asset: 'ETH',
      network: 'eth',
      amount: '1.25',
      decimals: 18,
      status: 'CREATED',
      actor: { type: 'api_key', id: apiKeyId },
      ivms101,
    });
    plain.get(IVMS101_COLUMN.table)!.set(id, Buffer.from(JSON.stringify(ivms101), 'utf8'));
  }
  for (let i = 0; i < OPERATORS; i++) {
    const op = await createOperator(db.sql, `rotating-${i}`, 'admin');
    const enrolment = await beginEnrolment(db.sql, ringA, op);
    plain.get(MFA_SECRET_COLUMN.table)!.set(String(op.id), Buffer.from(enrolment!.secret, 'utf8'));
  }
  const onTransfers = [...plain.get(IVMS101_COLUMN.table)!.keys()];
  for (const address of [
    '0x1111111111111111111111111111111111111111',
    '0x2222222222222222222222222222222222222222',
  ]) {
    const issued = await issueTravelAddress(
      { sql: db.sql, keyring: ringA, trpUrl: 'https://tollgate.example' },
      apiKeyId,
      'eth',
      address,
    );
    const token = issued.url.split('/').at(-1)!;
    const found = await findTravelAddress(db.sql, ringA, token);
    travelAddressTokens.set(token, { id: found!.id, address: issued.address });
    // Before the rotate records it, the new key alone cannot find it.
    expect(await findTravelAddress(db.sql, ringB, token)).toBeUndefined();
  }
  callbackTarget = onTransfers[0]!;
  callbackTokenA = callbackToken(ringA, callbackTarget);
  expect(await findByCallbackToken(db.sql, ringB, callbackTokenA)).toBeUndefined();
  for (let i = 0; i < NOTES; i++) {
    const on = onTransfers[i % 3]!;
    const text = `Note ${i}: called the customer, Jane Doe, about the source of funds.`;
    const id = await addNote(db.sql, ringA, on, 'rotating-0', text);
    plain.get(NOTE_COLUMN.table)!.set(id, Buffer.from(text, 'utf8'));
    noteOn.set(id, on);
  }
}, 120_000);
afterAll(async () => {
  await db?.drop();
});

describe('tollgate data-key', () => {
  it('refuses, naming TOLLGATE_DATA_KEYS_OLD, when rows need a key that is not configured', async () => {
    for (const sub of ['rotate', 'status']) {
      const run = runCli(db.url, ['data-key', sub], { TOLLGATE_DATA_KEY: B });
      expect(await run.exited).toBe(1);
      expect(run.err()).toContain('TOLLGATE_DATA_KEYS_OLD');
      expect(run.err()).toContain(keyA.id);
      expect(run.err()).not.toMatch(/\n\s+at /); // no stack
    }
    // No key at all (the data dir a wrong one): refused, and no key is made there, since a new
    // key would open nothing stored (status made one).
    for (const sub of ['rotate', 'status']) {
      const dir = mkdtempSync(join(tmpdir(), 'tollgate-nokey-'));
      const run = runCli(db.url, ['data-key', sub], { TOLLGATE_DATA_DIR: dir });
      expect(await run.exited).toBe(1);
      expect(run.err()).toContain(
        `tollgate data-key: no data key: TOLLGATE_DATA_KEY is not set and ${join(dir, 'data.key')} does not exist`,
      );
      expect(readdirSync(dir)).not.toContain('data.key');
    }
    // The appliance says so at start (a log line, no stack), and keeps running.
    const start = runCli(db.url, ['worker'], { TOLLGATE_DATA_KEY: B });
    for (let waited = 0; !start.err().includes('TOLLGATE_DATA_KEYS_OLD'); waited += 100) {
      if (waited > 30_000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    start.child.kill('SIGKILL');
    await start.exited;
    const said = start
      .err()
      .split('\n')
      .find((l) => l.includes('TOLLGATE_DATA_KEYS_OLD'));
    expect(JSON.parse(said!)).toMatchObject({
      table: 'travelrule_transactions',
      key_id: keyA.id,
      rows: TRANSFERS,
    });
    expect(start.err()).not.toMatch(/\n\s+at /);
    // And its reads, row by row.
    const id = [...plain.get(IVMS101_COLUMN.table)!.keys()][0]!;
    await expect(readPayload(db.sql, ringB, id)).rejects.toThrow(/TOLLGATE_DATA_KEYS_OLD/);
    // Nothing was written.
    expect(await openEverything(ringA)).toEqual({ [keyA.id]: SEALED });
  });

  it('survives kill -9 mid-way: every row still opens, and a rerun finishes the rest', async () => {
    const run = runCli(db.url, ['data-key', 'rotate', '--batch', '2'], B_WITH_A_OLD);
    await new Promise<void>((resolve) =>
      run.child.stdout!.on('data', () => {
        if (/travelrule_transactions: [1-9]\d*\//.test(run.out())) {
          run.child.kill('SIGKILL');
          resolve();
        }
      }),
    );
    expect(await run.exited).toBeNull(); // killed, not finished
    const mid = await openEverything(ringBA);
    expect(mid[keyB.id]).toBeGreaterThan(0);
    expect(mid[keyA.id]).toBeGreaterThan(0);
    expect(mid[keyA.id]! + mid[keyB.id]!).toBe(SEALED);

    const rerun = runCli(db.url, ['data-key', 'rotate', '--batch', '50', '--json'], B_WITH_A_OLD);
    expect(await rerun.exited).toBe(0);
    const summary = rerun.lastJson();
    const resealed = summary.tables.reduce((n: number, t: any) => n + t.resealed, 0);
    expect(resealed).toBe(mid[keyA.id]);
    expect(summary.tables.map((t: any) => t.remaining)).toEqual([0, 0, 0]);
    const a = summary.keys.find((k: any) => k.key_id === keyA.id);
    expect(a).toMatchObject({ source: 'TOLLGATE_DATA_KEYS_OLD[1]', total_rows: 0 });
    const b = summary.keys.find((k: any) => k.key_id === keyB.id);
    expect(b).toMatchObject({ source: 'TOLLGATE_DATA_KEY', current: true });
    expect(b.rows).toEqual({
      travelrule_transactions: TRANSFERS,
      operator_mfa: OPERATORS,
      travelrule_notes: NOTES,
    });
  }, 120_000);

  it('leaves every row readable under the new key alone, byte-equal to what was sealed', async () => {
    expect(await openEverything(ringB)).toEqual({ [keyB.id]: SEALED });
    // And through the product's own reads.
    for (const [id, bytes] of plain.get(IVMS101_COLUMN.table)!)
      expect(await readPayload(db.sql, ringB, id)).toEqual(JSON.parse(bytes.toString('utf8')));
    for (const [id, bytes] of plain.get(MFA_SECRET_COLUMN.table)!) {
      const again = await beginEnrolment(db.sql, ringB, { id, login: `x${id}`, role: 'admin' });
      expect(again?.secret).toBe(bytes.toString('utf8'));
    }
    for (const [id, bytes] of plain.get(NOTE_COLUMN.table)!) {
      const notes = await listNotes(db.sql, ringB, noteOn.get(id)!);
      expect(notes.find((n) => n.id === id)?.body).toBe(bytes.toString('utf8'));
    }
  });

  it("keeps the old key's callback URLs and Travel Addresses working once the key is removed", async () => {
    // Key A is gone from the keyring: only the hashes the rotate recorded can find them.
    for (const [token, ta] of travelAddressTokens)
      expect(await findTravelAddress(db.sql, ringB, token)).toMatchObject({
        id: ta.id,
        address: ta.address,
      });
    expect((await findByCallbackToken(db.sql, ringB, callbackTokenA))?.id).toBe(callbackTarget);
    // A token of the same form that key A never made finds nothing.
    const forged = `${callbackTokenA.slice(0, 48)}${'A'.repeat(43)}`;
    expect(await findByCallbackToken(db.sql, ringB, forged)).toBeUndefined();
    // Nothing but hashes is stored: no token in clear.
    const stored = JSON.stringify(await db.sql`select * from retired_key_tokens`);
    expect(stored).not.toContain(callbackTokenA);
    for (const [token] of travelAddressTokens) expect(stored).not.toContain(token);
  });

  it('status says no row is left under the old key; a rerun rewrites nothing', async () => {
    const status = runCli(db.url, ['data-key', 'status'], B_WITH_A_OLD);
    expect(await status.exited).toBe(0);
    expect(status.out()).toMatch(
      new RegExp(
        `key ${keyA.id}  TOLLGATE_DATA_KEYS_OLD\\[1\\]  travelrule_transactions 0, operator_mfa 0, travelrule_notes 0, tokens recorded ${TRANSFERS + TRAVEL_ADDRESSES}  \\(no rows left, tokens recorded: can be removed\\)`,
      ),
    );
    const alone = runCli(db.url, ['data-key', 'status', '--json'], { TOLLGATE_DATA_KEY: B });
    expect(await alone.exited).toBe(0);
    expect(alone.lastJson().keys).toEqual([
      {
        key_id: keyB.id,
        source: 'TOLLGATE_DATA_KEY',
        current: true,
        rows: {
          travelrule_transactions: TRANSFERS,
          operator_mfa: OPERATORS,
          travelrule_notes: NOTES,
        },
        total_rows: SEALED,
        tokens_recorded: 0,
        tokens_recorded_at: null,
      },
    ]);

    const before = await Promise.all(COLUMNS.map(sealedRows));
    const again = runCli(db.url, ['data-key', 'rotate', '--json'], { TOLLGATE_DATA_KEY: B });
    expect(await again.exited).toBe(0);
    expect(again.lastJson().tables.map((t: any) => [t.total, t.resealed])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(await Promise.all(COLUMNS.map(sealedRows))).toEqual(before);
  });

  it('never overwrites a row another writer changed meanwhile (compare-and-set)', async () => {
    const c = IVMS101_COLUMN;
    const [w, x, y] = [...plain.get(c.table)!.keys()].slice(0, 3) as [string, string, string];
    // Three rows back under A, as an appliance still running with A current would write them.
    const writeUnderA = async (sql: Sql | TransactionSql, id: string, bytes: Buffer) => {
      const s = sealBytes(ringA, c.context(id), bytes);
      await sql`update travelrule_transactions set ivms101_ciphertext = ${s.ciphertext},
        ivms101_nonce = ${s.nonce}, ivms101_key_id = ${s.keyId} where id = ${id}`;
    };
    for (const id of [w, x, y]) await writeUnderA(db.sql, id, plain.get(c.table)!.get(id)!);

    const changedBytes = Buffer.from(JSON.stringify({ changed: 'meanwhile' }), 'utf8');
    let run: ReturnType<typeof runCli> | undefined;
    await db.sql.begin(async (tx) => {
      // The writer holds row x: the rotate reads it, then its update waits for this transaction.
      await writeUnderA(tx, x, changedBytes);
      run = runCli(db.url, ['data-key', 'rotate', '--json'], B_WITH_A_OLD);
      for (let waited = 0; ; waited += 50) {
        const [blocked] = await db.sql`select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like 'update travelrule_transactions%'`;
        if (blocked!.n > 0) break;
        if (waited > 30_000) throw new Error('the rotate never waited for the row lock');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    plain.get(c.table)!.set(x, changedBytes);
    expect(await run!.exited).toBe(0);
    const [t] = run!.lastJson().tables;
    expect(t).toMatchObject({ total: 3, resealed: 2, changed: 1, remaining: 1 });
    // The writer's value stands, under A; the other two are under B.
    expect(await readPayload(db.sql, ringBA, x)).toEqual({ changed: 'meanwhile' });
    const keys = Object.fromEntries((await sealedRows(c)).map((r) => [r.id, r.key_id]));
    expect([keys[w], keys[x], keys[y]]).toEqual([keyB.id, keyA.id, keyB.id]);

    const rerun = runCli(db.url, ['data-key', 'rotate', '--json'], B_WITH_A_OLD);
    expect(await rerun.exited).toBe(0);
    expect(rerun.lastJson().tables[0]).toMatchObject({ total: 1, resealed: 1, remaining: 0 });
    expect(await openEverything(ringB)).toEqual({ [keyB.id]: SEALED });
  }, 60_000);
});
