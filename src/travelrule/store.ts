import type { Sql, TransactionSql } from '../db/index.js';
import { openPayload, type Keyring, type Sealed } from './crypto.js';
import type { Actor, Direction, Status } from './lifecycle.js';

/**
 * SQL operations on travelrule_transactions and travelrule_history. Status changes go through
 * lifecycle.ts (createTransaction, transition), which checks them against the table; nothing
 * here decides whether a move is allowed.
 */

type Db = Sql | TransactionSql;

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
  screening: Record<string, true> | null;
  threshold_note: string | null;
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
  screening, threshold_note, created_at, updated_at`;

export async function insertTransaction(tx: Db, r: TransactionRow): Promise<void> {
  await tx`
    insert into travelrule_transactions (id, api_key_id, direction, transaction_ref, asset, network, amount, decimals,
      beneficiary_vasp_id, counterparty_protocol, counterparty_ref, status, tx_hash, ivms101_ciphertext, ivms101_nonce, ivms101_key_id)
    values (${r.id}, ${r.apiKeyId}, ${r.direction}, ${r.transactionRef}, ${r.asset}, ${r.network}, ${r.amount}, ${r.decimals},
      ${r.beneficiaryVaspId}, ${r.counterpartyProtocol}, ${r.counterpartyRef}, ${r.status}, ${r.txHash},
      ${r.sealed.ciphertext}, ${r.sealed.nonce}, ${r.sealed.keyId})`;
}

export async function insertHistory(tx: Db, h: { transactionId: string; from: Status | null; to: Status; trigger: string; actor: Actor; reason?: string | null }): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    insert into travelrule_history (transaction_id, from_status, to_status, trigger, actor_type, actor_id, reason)
    values (${h.transactionId}, ${h.from}, ${h.to}, ${h.trigger}, ${h.actor.type}, ${h.actor.id}, ${h.reason ?? null})
    returning id`;
  return String(row!.id);
}

/** Locks the row for a status change (SELECT … FOR UPDATE); undefined when there is none. */
export async function lockForTransition(tx: TransactionSql, id: string): Promise<{ status: Status; direction: Direction } | undefined> {
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
export async function recordScreening(sql: Db, id: string, s: { originatorScore: number; beneficiaryScore: number; trueTags: Record<string, true> }): Promise<void> {
  await sql`
    update travelrule_transactions
    set originator_score = ${s.originatorScore}, beneficiary_score = ${s.beneficiaryScore},
      screening = ${sql.json(s.trueTags)}, screened_at = now(), updated_at = now()
    where id = ${id}`;
}

export async function getTransaction(sql: Db, id: string): Promise<TravelRuleTransaction | undefined> {
  const [row] = await sql<TravelRuleTransaction[]>`select ${sql.unsafe(COLUMNS)} from travelrule_transactions where id = ${id}`;
  return row ? { ...row, api_key_id: String(row.api_key_id) } : undefined;
}

/** A key's transaction by its reference (send_tx_hash and send_address name it so). */
export async function findByRef(sql: Db, apiKeyId: string, transactionRef: string): Promise<TravelRuleTransaction | undefined> {
  const [row] = await sql<TravelRuleTransaction[]>`
    select ${sql.unsafe(COLUMNS)} from travelrule_transactions where api_key_id = ${apiKeyId} and transaction_ref = ${transactionRef}`;
  return row ? { ...row, api_key_id: String(row.api_key_id) } : undefined;
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
  const [row] = await sql<{ ivms101_ciphertext: Buffer; ivms101_nonce: Buffer; ivms101_key_id: string }[]>`
    select ivms101_ciphertext, ivms101_nonce, ivms101_key_id from travelrule_transactions where id = ${id}`;
  if (!row) return undefined;
  return openPayload(keyring, id, { ciphertext: row.ivms101_ciphertext, nonce: row.ivms101_nonce, keyId: row.ivms101_key_id });
}
