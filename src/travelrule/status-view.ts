import type { Sql } from '../db/index.js';
import { TravelRuleError } from './errors.js';
import { listMessages, type MessageKind } from './sending/queue.js';
import type { ActorType, Direction, Status } from './status.js';
import { findByRef, listHistory } from './store.js';

/**
 * A transaction as the caller's backend may read it (GET /v2/travelrule/tx_status): its status,
 * how it got there, and how its messages to the other VASP fared. No personal data, and no
 * operator's reason or login: those are the compliance team's (a reason may say why a customer
 * is suspected; a backend that shows it to the customer would be tipping off). What the other
 * VASP said when it rejected or cancelled is shown.
 */
export interface TransactionStatusView {
  transaction_ref: string;
  direction: Direction;
  status: Status;
  asset: string;
  network: string | null;
  amount: string;
  tx_hash: string | null;
  counterparty_vasp_id: string | null;
  counterparty_protocol: 'trp' | 'email' | null;
  /** The other VASP's words when it rejected or cancelled; null otherwise. */
  counterparty_reason: string | null;
  created_at: string;
  updated_at: string;
  history: { from_status: Status | null; status: Status; actor_type: ActorType; at: string }[];
  messages: {
    kind: MessageKind;
    status: 'pending' | 'sent' | 'failed' | 'cancelled';
    attempts: number;
    /** The other side's HTTP status at the last attempt (TRP), if it answered. */
    last_status: number | null;
    last_error: string | null;
    sent_at: string | null;
  }[];
}

export async function transactionStatus(
  sql: Sql,
  apiKeyId: string,
  transactionRef: string,
): Promise<TransactionStatusView> {
  const t = await findByRef(sql, apiKeyId, transactionRef);
  if (!t)
    throw new TravelRuleError(
      'not_found',
      'transaction_ref: this API key has no travel rule transaction with this reference',
    );
  const [history, messages] = await Promise.all([listHistory(sql, t.id), listMessages(sql, t.id)]);
  return {
    transaction_ref: t.transaction_ref,
    direction: t.direction,
    status: t.status,
    asset: t.asset,
    network: t.network,
    amount: t.amount,
    tx_hash: t.tx_hash,
    counterparty_vasp_id: t.counterparty_vasp_id,
    counterparty_protocol: t.counterparty_protocol,
    counterparty_reason: t.counterparty_reason,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
    history: history.map((h) => ({
      from_status: h.from_status,
      status: h.to_status,
      actor_type: h.actor_type,
      at: h.at.toISOString(),
    })),
    messages: messages.map((m) => ({
      kind: m.kind,
      status: m.status,
      attempts: m.attempts,
      last_status: m.last_status,
      last_error: m.last_error,
      sent_at: m.sent_at?.toISOString() ?? null,
    })),
  };
}
