import type { Sql, TransactionSql } from '../../db/index.js';
import { enqueueJob } from '../../db/jobs.js';

/**
 * The queue of messages to other VASPs: one travelrule_messages row and one travelrule_send job
 * each, written in the transaction of the status change that calls for the message. The sender
 * (messages.ts) takes them from here.
 */

export type MessageKind =
  | 'trp_inquiry'
  | 'trp_resolution'
  | 'trp_confirmation'
  | 'email_inquiry'
  | 'email_tx_hash'
  | 'email_cancel';

export interface MessageParams {
  approved?: true;
  rejected?: string;
  txid?: string;
  canceled?: string;
}

export async function enqueueMessage(
  tx: TransactionSql,
  m: { transactionId: string; kind: MessageKind; params?: MessageParams; maxAttempts: number },
): Promise<string> {
  // TRP's request-identifier names the transfer, not the message: every message of a transfer
  // carries the same one. The inquiry's for an incoming transfer (its counterparty_ref); for an
  // outgoing one, the transaction's id, which its inquiry is the first to carry.
  const [row] = await tx<{ id: string }[]>`
    insert into travelrule_messages (transaction_id, kind, params, request_id)
    select t.id, ${m.kind}, ${tx.json((m.params ?? {}) as never)}, coalesce(t.counterparty_ref, t.id::text)
    from travelrule_transactions t where t.id = ${m.transactionId}
    returning id`;
  const id = String(row!.id);
  await enqueueJob(
    tx,
    'travelrule_send',
    { message_id: id },
    { jobKey: `trm:${id}`, maxAttempts: m.maxAttempts },
  );
  return id;
}

/**
 * The next attempt at a message, set later than graphile-worker's backoff would (the other VASP
 * asked to be left alone for longer), with the attempts the current job has left. Called from
 * that job, which then ends as done: graphile-worker takes the running job's key off it, so the
 * new job is a job of its own.
 */
export async function requeueMessage(
  tx: TransactionSql,
  messageId: string,
  next: { attemptsLeft: number; afterS: number },
): Promise<void> {
  await enqueueJob(
    tx,
    'travelrule_send',
    { message_id: messageId },
    { jobKey: `trm:${messageId}`, maxAttempts: next.attemptsLeft, runAfterS: next.afterS },
  );
}

export interface MessageRow {
  id: string;
  transaction_id: string;
  kind: MessageKind;
  params: MessageParams;
  request_id: string;
  status: 'pending' | 'sent' | 'failed' | 'cancelled';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export async function listMessages(sql: Sql, transactionId: string): Promise<MessageRow[]> {
  const rows = await sql<MessageRow[]>`
    select id, transaction_id, kind, params, request_id, status, attempts, last_status, last_error, created_at, sent_at
    from travelrule_messages where transaction_id = ${transactionId} order by id`;
  return rows.map((r) => ({ ...r, id: String(r.id) }));
}
