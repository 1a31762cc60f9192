import { whereAll, type TransactionSql, type Db } from '../db/index.js';
import { legacyTokenHash, transactionOfToken } from './callback-token.js';
import { openPayload, type Keyring, type Sealed } from './crypto.js';
import type { Actor, Direction, Status } from './status.js';
import type { ThresholdNote } from './threshold.js';
import type { Screening } from './screening.js';

/**
 * SQL operations on travelrule_transactions and travelrule_history. Status changes go through
 * lifecycle.ts (createTransaction, transition), which checks them against the table; nothing
 * here decides whether a move is allowed.
 */

/** A row without its payload: no personal data. */
export interface TravelRuleTransaction {
  id: string;
  api_key_id: string;
  direction: Direction;
  transaction_ref: string;
  asset: string;
  network: string | null;
  /** Decimal string, exact. */
  amount: string;
  decimals: number;
  beneficiary_vasp_id: string | null;
  counterparty_protocol: 'trp' | 'email' | null;
  counterparty_ref: string | null;
  status: Status;
  tx_hash: string | null;
  originator_score: number | null;
  beneficiary_score: number | null;
  screening: Screening | null;
  threshold: ThresholdNote[] | null;
  counterparty_vasp_id: string | null;
  counterparty_callback: string | null;
  /** SHA-256 of the callback token of a transfer begun before derived tokens (callback-token.ts). */
  callback_token: string | null;
  counterparty_email: string | null;
  beneficiary_address: string | null;
  /** The beneficiary's Travel Address or inquiry URL given to create_tx; the inquiry goes there. */
  beneficiary_travel_address: string | null;
  counterparty_reason: string | null;
  /** What the other VASP's inquiry said of itself (IVMS101 originatingVASP): name and LEI, as stated. */
  counterparty_stated_name: string | null;
  counterparty_stated_lei: string | null;
  /** How its inquiry says its names were transliterated (IVMS101 TransliterationMethodCodes). */
  counterparty_transliteration: string[] | null;
  created_at: Date;
  updated_at: Date;
}

export interface HistoryEntry {
  id: string;
  from_status: Status | null;
  to_status: Status;
  trigger: string;
  actor_type: Actor['type'];
  actor_id: string;
  reason: string | null;
  at: Date;
}

export interface TransactionRow {
  id: string;
  apiKeyId: string;
  direction: Direction;
  transactionRef: string;
  asset: string;
  network: string | null;
  amount: string;
  decimals: number;
  beneficiaryVaspId: string | null;
  counterpartyProtocol: 'trp' | 'email' | null;
  counterpartyRef: string | null;
  status: Status;
  txHash: string | null;
  sealed: Sealed;
}

const COLUMNS = `id, api_key_id, direction, transaction_ref, asset, network, amount::text as amount, decimals,
  beneficiary_vasp_id, counterparty_protocol, counterparty_ref, status, tx_hash, originator_score, beneficiary_score,
  screening, threshold, counterparty_vasp_id, counterparty_callback, callback_token, counterparty_email, beneficiary_address, beneficiary_travel_address, counterparty_reason,
  counterparty_stated_name, counterparty_stated_lei, counterparty_transliteration, created_at, updated_at`;

export async function insertTransaction(tx: Db, r: TransactionRow): Promise<void> {
  await tx`
    insert into travelrule_transactions (id, api_key_id, direction, transaction_ref, asset, network, amount, decimals,
      beneficiary_vasp_id, counterparty_protocol, counterparty_ref, status, tx_hash, ivms101_ciphertext, ivms101_nonce, ivms101_key_id)
    values (${r.id}, ${r.apiKeyId}, ${r.direction}, ${r.transactionRef}, ${r.asset}, ${r.network}, ${r.amount}, ${r.decimals},
      ${r.beneficiaryVaspId}, ${r.counterpartyProtocol}, ${r.counterpartyRef}, ${r.status}, ${r.txHash},
      ${r.sealed.ciphertext}, ${r.sealed.nonce}, ${r.sealed.keyId})`;
}

export async function insertHistory(
  tx: Db,
  h: {
    transactionId: string;
    from: Status | null;
    to: Status;
    trigger: string;
    actor: Actor;
    reason?: string | null;
  },
): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    insert into travelrule_history (transaction_id, from_status, to_status, trigger, actor_type, actor_id, reason)
    values (${h.transactionId}, ${h.from}, ${h.to}, ${h.trigger}, ${h.actor.type}, ${h.actor.id}, ${h.reason ?? null})
    returning id`;
  return String(row!.id);
}

/** Locks the row for a status change (SELECT … FOR UPDATE); undefined when there is none. */
export async function lockForTransition(
  tx: TransactionSql,
  id: string,
): Promise<{ status: Status; direction: Direction } | undefined> {
  const [row] = await tx<{ status: Status; direction: Direction }[]>`
    select status, direction from travelrule_transactions where id = ${id} for update`;
  return row;
}

export async function updateStatus(tx: Db, id: string, to: Status, txHash?: string): Promise<void> {
  await tx`
    update travelrule_transactions
    set status = ${to}, tx_hash = coalesce(${txHash ?? null}, tx_hash), updated_at = now()
    where id = ${id}`;
}

/** Records the AML screening of the parties' addresses: scores and the tags found true. */
export async function recordScreening(sql: Db, id: string, s: Screening): Promise<void> {
  await sql`
    update travelrule_transactions
    set originator_score = ${s.originator.score}, beneficiary_score = ${s.beneficiary.score},
      screening = ${sql.json(s as never)}, screened_at = now(), updated_at = now()
    where id = ${id}`;
}

/** Sets the columns that say how the other VASP is reached and what it said; null leaves a column as it is. */
export async function updateCounterparty(
  sql: Db,
  id: string,
  f: {
    vaspId?: string | null;
    protocol?: 'trp' | 'email' | null;
    callback?: string | null;
    callbackToken?: string | null;
    email?: string | null;
    beneficiaryAddress?: string | null;
    reason?: string | null;
    ref?: string | null;
    travelAddress?: string | null;
    statedName?: string | null;
    statedLei?: string | null;
    transliteration?: string[] | null;
  },
): Promise<void> {
  await sql`
    update travelrule_transactions set
      counterparty_vasp_id = coalesce(${f.vaspId ?? null}, counterparty_vasp_id),
      counterparty_protocol = coalesce(${f.protocol ?? null}, counterparty_protocol),
      counterparty_callback = coalesce(${f.callback ?? null}, counterparty_callback),
      callback_token = coalesce(${f.callbackToken ?? null}, callback_token),
      counterparty_email = coalesce(${f.email ?? null}, counterparty_email),
      beneficiary_address = coalesce(${f.beneficiaryAddress ?? null}, beneficiary_address),
      counterparty_reason = coalesce(${f.reason ?? null}, counterparty_reason),
      counterparty_ref = coalesce(${f.ref ?? null}, counterparty_ref),
      beneficiary_travel_address = coalesce(${f.travelAddress ?? null}, beneficiary_travel_address),
      counterparty_stated_name = coalesce(${f.statedName ?? null}, counterparty_stated_name),
      counterparty_stated_lei = coalesce(${f.statedLei ?? null}, counterparty_stated_lei),
      counterparty_transliteration = coalesce(${f.transliteration ?? null}::text[], counterparty_transliteration),
      updated_at = now()
    where id = ${id}`;
}

export async function recordThreshold(sql: Db, id: string, notes: ThresholdNote[]): Promise<void> {
  await sql`update travelrule_transactions set threshold = ${sql.json(notes as never)} where id = ${id}`;
}

/** The transaction whose callback URL carries this token (inbound TRP resolutions and confirmations). */
export async function findByCallbackToken(
  sql: Db,
  keyring: Keyring,
  token: string,
): Promise<TravelRuleTransaction | undefined> {
  const id = transactionOfToken(keyring, token);
  if (id !== undefined) return getTransaction(sql, id);
  // A random token of before (its hash on the row), or one made by a data key since removed
  // (its hash recorded by `tollgate data-key rotate`: retired-tokens.ts).
  const hash = legacyTokenHash(token);
  const [row] = await sql<TravelRuleTransaction[]>`
    select ${sql.unsafe(COLUMNS)} from travelrule_transactions
    where callback_token = ${hash}
      or id = (select target from retired_key_tokens where token_hash = ${hash} and kind = 'callback')
    limit 1`;
  return row ? { ...row, api_key_id: String(row.api_key_id) } : undefined;
}

export async function getTransaction(
  sql: Db,
  id: string,
): Promise<TravelRuleTransaction | undefined> {
  const [row] = await sql<
    TravelRuleTransaction[]
  >`select ${sql.unsafe(COLUMNS)} from travelrule_transactions where id = ${id}`;
  return row ? { ...row, api_key_id: String(row.api_key_id) } : undefined;
}

/** A key's transaction by its reference (send_tx_hash and send_address name it so). */
export async function findByRef(
  sql: Db,
  apiKeyId: string,
  transactionRef: string,
): Promise<TravelRuleTransaction | undefined> {
  const [row] = await sql<TravelRuleTransaction[]>`
    select ${sql.unsafe(COLUMNS)} from travelrule_transactions where api_key_id = ${apiKeyId} and transaction_ref = ${transactionRef}`;
  return row ? { ...row, api_key_id: String(row.api_key_id) } : undefined;
}

/**
 * The deposit an inbound TRP inquiry made under this reference (`trp-<request-identifier>`),
 * whichever API key it went to (a Travel Address belongs to its customer's key, the directory
 * inquiry URL to the incoming key): the oldest when there are several.
 */
export async function findTrpInquiry(
  sql: Db,
  transactionRef: string,
): Promise<TravelRuleTransaction | undefined> {
  const [row] = await sql<TravelRuleTransaction[]>`
    select ${sql.unsafe(COLUMNS)} from travelrule_transactions
    where transaction_ref = ${transactionRef} and api_key_id in (select id from api_keys)
      and direction = 'incoming' and counterparty_protocol = 'trp'
    order by created_at, id limit 1`;
  return row ? { ...row, api_key_id: String(row.api_key_id) } : undefined;
}

/** Transactions, oldest first, optionally of one status and direction (the operators' queues). */
export async function listTransactions(
  sql: Db,
  f: { status?: Status; direction?: Direction; page: number; limit: number },
): Promise<{ rows: TravelRuleTransaction[]; total: number }> {
  const where = whereAll(sql, [
    f.status ? sql`status = ${f.status}` : null,
    f.direction ? sql`direction = ${f.direction}` : null,
  ]);
  const [count] = await sql<
    { total: number }[]
  >`select count(*)::int as total from travelrule_transactions ${where}`;
  const rows = await sql<TravelRuleTransaction[]>`
    select ${sql.unsafe(COLUMNS)} from travelrule_transactions ${where}
    order by created_at, id limit ${f.limit} offset ${(f.page - 1) * f.limit}`;
  return {
    rows: rows.map((r) => ({ ...r, api_key_id: String(r.api_key_id) })),
    total: count!.total,
  };
}

/** Every status the transaction took, oldest first. */
export async function listHistory(sql: Db, transactionId: string): Promise<HistoryEntry[]> {
  const rows = await sql<HistoryEntry[]>`
    select id, from_status, to_status, trigger, actor_type, actor_id, reason, at
    from travelrule_history where transaction_id = ${transactionId} order by id`;
  return rows.map((r) => ({ ...r, id: String(r.id) }));
}

/** The decrypted IVMS101 payload; undefined when there is no such row, DecryptionError when it fails. */
export async function readPayload(sql: Db, keyring: Keyring, id: string): Promise<unknown> {
  const [row] = await sql<
    { ivms101_ciphertext: Buffer; ivms101_nonce: Buffer; ivms101_key_id: string }[]
  >`
    select ivms101_ciphertext, ivms101_nonce, ivms101_key_id from travelrule_transactions where id = ${id}`;
  if (!row) return undefined;
  return openPayload(keyring, id, {
    ciphertext: row.ivms101_ciphertext,
    nonce: row.ivms101_nonce,
    keyId: row.ivms101_key_id,
  });
}
