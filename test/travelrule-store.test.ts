import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import {
  DecryptionError,
  decodeDataKey,
  makeKeyring,
  type Keyring,
} from '../src/travelrule/crypto.js';
import {
  DuplicateTransactionRefError,
  IllegalTransitionError,
  StatusChangedError,
  TransactionNotFoundError,
  createTransaction,
  transition,
  type NewTransaction,
} from '../src/travelrule/lifecycle.js';
import { getTransaction, listHistory, readPayload } from '../src/travelrule/store.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { DEPOSIT_CONFIRMED } from './helpers/travelrule.js';

let db: TestDatabase;
let apiKeyId: string;
const key = decodeDataKey(randomBytes(32).toString('base64'), 'test');
const ring: Keyring = makeKeyring(key);

const NAME = 'Wilhelmina Quetzalcoatl';
const DOB = '1961-07-23';
const ivms101 = {
  originator: {
    persons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              {
                primaryIdentifier: 'Quetzalcoatl',
                secondaryIdentifier: 'Wilhelmina',
                nameIdentifierType: 'LEGL',
              },
            ],
          },
          fullName: NAME,
          dateAndPlaceOfBirth: { dateOfBirth: DOB, placeOfBirth: 'Zurich' },
        },
      },
    ],
    accountNumber: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'],
  },
  beneficiary: {
    persons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              { primaryIdentifier: 'Doe', secondaryIdentifier: 'Jane', nameIdentifierType: 'LEGL' },
            ],
          },
        },
      },
    ],
    accountNumber: ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'],
  },
};

let refs = 0;
const outgoing = (over: Partial<NewTransaction> = {}): NewTransaction => ({
  apiKeyId,
  direction: 'outgoing',
  transactionRef: `ref-${++refs}`,
  asset: 'ETH',
  network: 'eth',
  amount: '0.125000000000000001',
  decimals: 18,
  beneficiaryVaspId: '7c1f0c3e-2b8d-4c1e-9f7a-5d6e7f8a9b0c',
  status: 'CREATED',
  actor: { type: 'api_key', id: apiKeyId },
  ivms101,
  ...over,
});
const SYSTEM = { type: 'system', id: 'screening' } as const;
const OPERATOR = { type: 'operator', id: 'alice' } as const;
const VASP = { type: 'counterparty', id: 'vasp-7c1f' } as const;

beforeAll(async () => {
  db = await freshDatabase();
  apiKeyId = (await createApiKey(db.sql, 'travelrule')).id;
});
afterAll(async () => {
  await db?.drop();
});

describe('createTransaction and transition', () => {
  it('records the creation in history from null', async () => {
    const { id, status } = await createTransaction(db.sql, ring, outgoing());
    expect(status).toBe('CREATED');
    const row = await getTransaction(db.sql, id);
    expect(row).toMatchObject({
      direction: 'outgoing',
      status: 'CREATED',
      amount: '0.125000000000000001',
      decimals: 18,
      api_key_id: apiKeyId,
    });
    const history = await listHistory(db.sql, id);
    expect(history).toEqual([
      expect.objectContaining({
        from_status: null,
        to_status: 'CREATED',
        trigger: 'create_tx',
        actor_type: 'api_key',
        actor_id: apiKeyId,
        reason: null,
      }),
    ]);
  });

  it('walks the outgoing flow to COMPLETED, recording actor and reason of each move', async () => {
    const { id } = await createTransaction(db.sql, ring, outgoing());
    await transition(db.sql, { id, to: 'SCORE', actor: SYSTEM });
    await transition(db.sql, { id, to: 'PENDING', actor: SYSTEM });
    await transition(db.sql, {
      id,
      to: 'OTHER_VASP_PENDING',
      actor: OPERATOR,
      reason: 'checked by hand',
    });
    await transition(db.sql, { id, to: 'OTHER_VASP_APPROVED', actor: VASP });
    await transition(db.sql, { id, to: 'WAITING_TX_HASH', actor: SYSTEM });
    await transition(db.sql, {
      id,
      to: 'COMPLETED',
      actor: { type: 'api_key', id: apiKeyId },
      txHash: '0xabc',
    });
    expect(await getTransaction(db.sql, id)).toMatchObject({
      status: 'COMPLETED',
      tx_hash: '0xabc',
    });
    const history = await listHistory(db.sql, id);
    expect(
      history.map((h) => [h.from_status, h.to_status, h.trigger, h.actor_type, h.actor_id]),
    ).toEqual([
      [null, 'CREATED', 'create_tx', 'api_key', apiKeyId],
      ['CREATED', 'SCORE', 'screening_started', 'system', 'screening'],
      ['SCORE', 'PENDING', 'screening_done', 'system', 'screening'],
      ['PENDING', 'OTHER_VASP_PENDING', 'operator_accept', 'operator', 'alice'],
      [
        'OTHER_VASP_PENDING',
        'OTHER_VASP_APPROVED',
        'other_vasp_approve',
        'counterparty',
        'vasp-7c1f',
      ],
      ['OTHER_VASP_APPROVED', 'WAITING_TX_HASH', 'tx_hash_requested', 'system', 'screening'],
      ['WAITING_TX_HASH', 'COMPLETED', 'send_tx_hash', 'api_key', apiKeyId],
    ]);
    expect(history[3]!.reason).toBe('checked by hand');
    await expect(transition(db.sql, { id, to: 'REJECTED', actor: OPERATOR })).rejects.toThrow(
      /COMPLETED → REJECTED is not allowed; allowed next: none/,
    );
  });

  it('walks the incoming protocol flow to TRANSACTION_CONFIRMED', async () => {
    const { id } = await createTransaction(
      db.sql,
      ring,
      outgoing({ direction: 'incoming', actor: VASP }),
    );
    for (const [to, actor] of [
      ['SCORE', SYSTEM],
      ['PENDING', SYSTEM],
      ['WAITING_ADDRESS_DATA', OPERATOR],
      ['WAITING_FOR_CONFIRMATION', { type: 'api_key', id: apiKeyId }],
      ['TRANSACTION_CONFIRMED', VASP],
    ] as const) {
      await transition(db.sql, { id, to, actor });
    }
    expect((await listHistory(db.sql, id)).map((h) => h.to_status)).toEqual(DEPOSIT_CONFIRMED);
  });

  it('refuses an illegal transition and writes nothing', async () => {
    const { id } = await createTransaction(db.sql, ring, outgoing());
    const before = await getTransaction(db.sql, id);
    const err = await transition(db.sql, {
      id,
      to: 'COMPLETED',
      actor: { type: 'api_key', id: apiKeyId },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IllegalTransitionError);
    expect((err as Error).message).toBe(
      'travel rule outgoing transaction: CREATED → COMPLETED is not allowed; allowed next: SCORE',
    );
    expect((err as Error).message).not.toContain(NAME);
    const unchanged = await getTransaction(db.sql, id);
    expect(unchanged!.status).toBe('CREATED');
    expect(unchanged!.updated_at).toEqual(before!.updated_at);
    expect(await listHistory(db.sql, id)).toHaveLength(1);
    // the right status by the wrong actor: refused too
    await transition(db.sql, { id, to: 'SCORE', actor: SYSTEM });
    await transition(db.sql, { id, to: 'PENDING', actor: SYSTEM });
    await expect(
      transition(db.sql, {
        id,
        to: 'OTHER_VASP_PENDING',
        actor: { type: 'api_key', id: apiKeyId },
      }),
    ).rejects.toThrow('taken by operator, not api_key');
    // an incoming-only move on an outgoing row
    await expect(
      transition(db.sql, { id, to: 'WAITING_ADDRESS_DATA', actor: OPERATOR }),
    ).rejects.toThrow(IllegalTransitionError);
    expect((await getTransaction(db.sql, id))!.status).toBe('PENDING');
    expect((await listHistory(db.sql, id)).map((h) => h.to_status)).toEqual([
      'CREATED',
      'SCORE',
      'PENDING',
    ]);
    await expect(
      transition(db.sql, {
        id: '00000000-0000-4000-8000-000000000000',
        to: 'SCORE',
        actor: SYSTEM,
      }),
    ).rejects.toThrow(TransactionNotFoundError);
  });

  it('refuses a second transaction_ref for the same key, and a creation in the wrong status', async () => {
    await createTransaction(db.sql, ring, outgoing({ transactionRef: 'dup' }));
    await expect(
      createTransaction(db.sql, ring, outgoing({ transactionRef: 'dup' })),
    ).rejects.toThrow(DuplicateTransactionRefError);
    await expect(
      createTransaction(db.sql, ring, outgoing({ transactionRef: 'pending', status: 'PENDING' })),
    ).rejects.toThrow(IllegalTransitionError);
    const [count] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from travelrule_transactions where transaction_ref in ('dup', 'pending')`;
    expect(count!.n).toBe(1);
  });

  it('serialises concurrent moves on one row: of two that exclude each other, exactly one wins', async () => {
    const { id } = await createTransaction(db.sql, ring, outgoing());
    for (const [to, actor] of [
      ['SCORE', SYSTEM],
      ['PENDING', SYSTEM],
      ['OTHER_VASP_PENDING', OPERATOR],
      ['OTHER_VASP_APPROVED', VASP],
      ['WAITING_TX_HASH', SYSTEM],
    ] as const) {
      await transition(db.sql, { id, to, actor });
    }
    const results = await Promise.allSettled([
      transition(db.sql, {
        id,
        to: 'COMPLETED',
        actor: { type: 'api_key', id: apiKeyId },
        txHash: '0xdef',
      }),
      transition(db.sql, { id, to: 'REJECTED', actor: OPERATOR, reason: 'customer cancelled' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(IllegalTransitionError);
    expect(await listHistory(db.sql, id)).toHaveLength(7);
  });

  it('refuses a decision taken on a status the row has left (from)', async () => {
    const { id } = await createTransaction(db.sql, ring, outgoing());
    await transition(db.sql, { id, to: 'SCORE', actor: SYSTEM });
    await transition(db.sql, { id, to: 'PENDING', actor: SYSTEM });
    // two operators decide on the PENDING row they both saw: the later one must not become a cancel
    const results = await Promise.allSettled([
      transition(db.sql, { id, from: 'PENDING', to: 'OTHER_VASP_PENDING', actor: OPERATOR }),
      transition(db.sql, {
        id,
        from: 'PENDING',
        to: 'REJECTED',
        actor: { type: 'operator', id: 'bob' },
      }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(StatusChangedError);
    expect(await listHistory(db.sql, id)).toHaveLength(4);
  });
});

describe('IVMS101 encryption at rest', () => {
  it('stores no plaintext name or date of birth, and decrypts to the input', async () => {
    const { id } = await createTransaction(db.sql, ring, outgoing());
    const [raw] = await db.sql<
      {
        ivms101_ciphertext: Buffer;
        ivms101_nonce: Buffer;
        ivms101_key_id: string;
        whole_row: string;
      }[]
    >`
      select ivms101_ciphertext, ivms101_nonce, ivms101_key_id, t::text as whole_row from travelrule_transactions t where id = ${id}`;
    expect(raw!.ivms101_nonce).toHaveLength(12);
    expect(raw!.ivms101_key_id).toBe(key.id);
    for (const secret of [NAME, 'Quetzalcoatl', DOB, 'Zurich']) {
      expect(raw!.ivms101_ciphertext.includes(Buffer.from(secret))).toBe(false);
      expect(raw!.whole_row).not.toContain(secret);
      const [found] = await db.sql<{ hits: number }[]>`
        select count(*)::int as hits from travelrule_transactions where position(convert_to(${secret}, 'UTF8') in ivms101_ciphertext) > 0`;
      expect(found!.hits).toBe(0);
    }
    expect(await readPayload(db.sql, ring, id)).toEqual(ivms101);
  });

  it('refuses a tampered ciphertext and a ciphertext moved to another row', async () => {
    const a = (await createTransaction(db.sql, ring, outgoing())).id;
    const b = (await createTransaction(db.sql, ring, outgoing())).id;
    // moved: b gets a's ciphertext, nonce and key id
    await db.sql`
      update travelrule_transactions t set ivms101_ciphertext = s.ivms101_ciphertext, ivms101_nonce = s.ivms101_nonce, ivms101_key_id = s.ivms101_key_id
      from travelrule_transactions s where s.id = ${a} and t.id = ${b}`;
    expect(await readPayload(db.sql, ring, a)).toEqual(ivms101);
    await expect(readPayload(db.sql, ring, b)).rejects.toThrow(DecryptionError);
    // tampered: one bit of a's ciphertext flipped
    await db.sql`
      update travelrule_transactions set ivms101_ciphertext = set_byte(ivms101_ciphertext, 5, get_byte(ivms101_ciphertext, 5) # 1) where id = ${a}`;
    const err = await readPayload(db.sql, ring, a).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecryptionError);
    expect((err as Error).message).not.toContain(NAME);
  });

  it('rotates keys: rows sealed with an old key decrypt while it is in the keyring', async () => {
    const oldRing = makeKeyring(decodeDataKey(randomBytes(32).toString('base64'), 'old'));
    const { id } = await createTransaction(db.sql, oldRing, outgoing());
    const newRing = makeKeyring(decodeDataKey(randomBytes(32).toString('base64'), 'new'), [
      oldRing.current,
    ]);
    const { id: fresh } = await createTransaction(db.sql, newRing, outgoing());
    expect(await readPayload(db.sql, newRing, id)).toEqual(ivms101);
    expect(await readPayload(db.sql, newRing, fresh)).toEqual(ivms101);
    const [sealedBy] = await db.sql<
      { key_id: string }[]
    >`select ivms101_key_id as key_id from travelrule_transactions where id = ${fresh}`;
    expect(sealedBy!.key_id).toBe(newRing.current.id);
    // without the old key, the old row cannot be read
    await expect(readPayload(db.sql, makeKeyring(newRing.current), id)).rejects.toThrow(
      /not in the keyring/,
    );
  });
});
