import { recordAudit } from '../../audit/index.js';
import type { Sql, TransactionSql } from '../../db/index.js';
import { enqueueJob } from '../../db/jobs.js';
import { TravelRuleError } from '../errors.js';

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

/**
 * The statuses a message still makes sense in: a message the transaction has moved past is not
 * sent (the sender records it cancelled), nor sent again. An approval of a deposit's inquiry
 * goes only while the transfer waits for the originator's confirmation: once an operator has
 * cancelled the transfer (REJECTED), an approval still waiting out its backoff is not sent (it
 * would invite the funds; TRP has no message taking it back).
 */
export function sendsIn(m: { kind: MessageKind; params: MessageParams }): readonly string[] {
  switch (m.kind) {
    case 'trp_inquiry':
    case 'email_inquiry':
      return ['OTHER_VASP_PENDING'];
    case 'trp_resolution':
      return m.params.approved !== undefined ? ['WAITING_FOR_CONFIRMATION'] : ['REJECTED'];
    case 'trp_confirmation':
      // A cancellation also answers an approval that came after this side gave up on its inquiry.
      return m.params.txid !== undefined ? ['COMPLETED'] : ['REJECTED', 'OTHER_VASP_REJECTED'];
    case 'email_tx_hash':
      return ['COMPLETED'];
    case 'email_cancel':
      return ['REJECTED'];
  }
}

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

/**
 * An operator's "send again" (a message that failed: its attempts used up, or refused by the
 * other VASP) or "send now" (a pending message waiting out its backoff): its job is set to run at
 * once with a fresh round of attempts (graphile-worker's add_job with the message's job key,
 * which resets the attempts of the job it replaces), the message back to pending, audited, all
 * in one transaction. The message keeps its request-identifier, so the other VASP sees a retry
 * of the same transfer. Refused, changing nothing: a message sent already or not sent because the
 * transaction moved on, one whose transaction has moved past it (an inquiry that failed moved its
 * transfer to OTHER_VASP_REJECTED: a new transfer asks again), and one being sent at this moment.
 */
export async function sendMessageAgain(
  sql: Sql,
  r: {
    transactionId: string;
    messageId: string;
    actor: string;
    maxAttempts: number;
    /** The operator API's requests say so in the audit entry, as its other actions do. */
    via?: 'api';
  },
): Promise<{ kind: MessageKind; was: 'pending' | 'failed' }> {
  const noSuchMessage = () =>
    new TravelRuleError('not_found', 'message: this transaction has no such message');
  const id = r.messageId;
  if (!/^\d{1,18}$/.test(id)) throw noSuchMessage();
  return sql.begin(async (tx) => {
    const [m] = await tx<
      {
        kind: MessageKind;
        params: MessageParams;
        status: MessageRow['status'];
        in_status: string;
      }[]
    >`
      select m.kind, m.params, m.status, t.status as in_status
      from travelrule_messages m join travelrule_transactions t on t.id = m.transaction_id
      where m.id = ${id} and m.transaction_id = ${r.transactionId}
      for update of m`;
    if (!m) throw noSuchMessage();
    if (m.status === 'sent') throw new TravelRuleError('state', 'message: it was sent already');
    if (m.status === 'cancelled' || !sendsIn(m).includes(m.in_status))
      throw new TravelRuleError(
        'state',
        `message: the transaction is ${m.in_status}, which this ${m.kind} no longer applies to`,
      );
    const [running] = await tx`
      select 1 from graphile_worker.jobs where key = ${`trm:${id}`} and locked_at is not null`;
    if (running) throw new TravelRuleError('state', 'message: it is being sent at this moment', 5);
    await tx`update travelrule_messages set status = 'pending' where id = ${id}`;
    await enqueueJob(
      tx,
      'travelrule_send',
      { message_id: id },
      { jobKey: `trm:${id}`, maxAttempts: r.maxAttempts },
    );
    await recordAudit(tx, {
      actor: r.actor,
      action: 'travelrule_message_send',
      target: r.transactionId,
      details: { message: id, kind: m.kind, was: m.status, ...(r.via ? { via: r.via } : {}) },
    });
    return { kind: m.kind, was: m.status };
  }) as Promise<{ kind: MessageKind; was: 'pending' | 'failed' }>;
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
