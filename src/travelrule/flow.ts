import type { AmlConfig } from '../config/aml.js';
import { validateAddress } from '../chains/address/index.js';
import type { TravelRuleConfig } from '../config/index.js';
import type { Sql, TransactionSql } from '../db/index.js';
import type { Keyring } from './crypto.js';
import { TravelRuleError } from './errors.js';
import type { DtiTable } from './trp/assets.js';
import type { AllowList } from '../net/ssrf.js';
import { trpUrlRefusal } from './trp/client.js';
import type { NormalisedParty } from './ivms101/index.js';
import {
  DuplicateTransactionRefError,
  IllegalTransitionError,
  StatusChangedError,
  transition,
  type Actor,
  type Status,
} from './lifecycle.js';
import type { screenParties } from './screening.js';
import {
  findByRef,
  getTransaction,
  insertHistory,
  recordScreening,
  recordThreshold,
  updateCounterparty,
  type TravelRuleTransaction,
} from './store.js';
import { enqueueTravelRuleWebhook } from './webhooks.js';
import { thresholdNotes } from './threshold.js';

/**
 * The Travel Rule flows of the spec, on top of the lifecycle (lifecycle.ts decides which moves
 * are allowed; the flows decide which move a request means, and what goes with it: the
 * screening, the message to the other VASP, the webhook to the caller), each in one database
 * transaction with its side effects (messages and webhooks are rows and jobs, sent by workers).
 * By direction and step: withdrawal.ts, deposit.ts, review.ts (the operators' decisions), and
 * sending/ (messages to the other VASP, over TRP or by e-mail). This file holds what they share.
 *
 * - withdrawal: create_tx → PENDING → operator accepts → OTHER_VASP_PENDING and an inquiry (TRP)
 *   or an e-mail with the view link → the other VASP approves (OTHER_VASP_APPROVED webhook,
 *   then WAITING_TX_HASH) or rejects (OTHER_VASP_REJECTED webhook) → send_tx_hash → COMPLETED
 *   and the confirmation {txid} (or an e-mail with the hash).
 * - deposit with the protocol: an inquiry arrives → PENDING → operator accepts →
 *   WAITING_ADDRESS_DATA webhook → send_address → approved resolution, WAITING_FOR_CONFIRMATION
 *   → the originator's confirmation → TRANSACTION_CONFIRMED webhook with txid. Rejected → a
 *   rejected resolution.
 * - deposit without the protocol: receive_tx_without_protocol → APPROVED, screened, listed.
 *
 * What the other VASP is told on a rejection is a fixed sentence, never the operator's reason:
 * that reason is internal (it may say why a customer is suspected, and telling would be tipping
 * off); it stays in the history.
 */

export interface TravelRuleDeps {
  sql: Sql;
  keyring: Keyring;
  config: TravelRuleConfig;
  aml: AmlConfig;
  /** The DTIs of assets named over TRP (travel_rule.dti_file). */
  dtis: DtiTable;
  /** Networks this appliance indexes (screening knows an address's age only there). */
  indexedNetworks: readonly string[];
  /** Where other VASPs reach this appliance's pages (e-mailed view links). */
  publicUrl: string;
  /** Where other VASPs send TRP messages: inquiry URLs, callbacks, Travel Addresses. */
  trpUrl: string;
  /**
   * This VASP's certificate as TRP's `GET /identity` shows it (PEM, leafCertificate): the one
   * its TRP requests present, else the TRP listener's; none configured: the identity has none.
   */
  identityCertificate?: string;
  maxAttempts: number;
  /** Private ranges counterparties' TRP URLs may point into (travel_rule.trp_allow_cidrs). */
  allow: AllowList;
  /**
   * New inquiries taken per counterparty (travel_rule.trp_inquiries_per_minute), in the process
   * that serves TRP; none: no limit.
   */
  inquiryBuckets?: { take(key: string): { ok: boolean; retryAfterS: number } };
}

export const REJECTION_SENT = 'rejected by the compliance review of the counterparty VASP';
export const CANCELLATION_SENT = 'canceled by the compliance review of the counterparty VASP';

export const SYSTEM: Actor = { type: 'system', id: 'tollgate' };
export const MAX_REASON_CHARS = 1000;

/** Runs `fn`, turning the lifecycle's refusals into TravelRuleError('state'). */
export async function moving<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof IllegalTransitionError || err instanceof StatusChangedError)
      throw new TravelRuleError('state', err.message);
    throw err;
  }
}

/**
 * Runs `apply` on a transaction read before, and once more on the row as it is now if another
 * request moved it in between (StatusChangedError): the same message of the other VASP arriving
 * twice at once (its retry of an attempt it gave up on, while the first was still being taken
 * here), which on the fresh row is the repeat it is and changes nothing.
 */
export async function onFreshRowIfMoved(
  sql: Sql,
  t: TravelRuleTransaction,
  apply: (row: TravelRuleTransaction) => Promise<void>,
): Promise<void> {
  try {
    await apply(t);
  } catch (err) {
    if (!(err instanceof StatusChangedError)) throw err;
    await apply(await mustGet(sql, t.id));
  }
}

export async function screenAndPend(
  deps: TravelRuleDeps,
  tx: TransactionSql,
  id: string,
  t: {
    network: string;
    asset: string;
    amount: string;
    originator: NormalisedParty;
    beneficiary: NormalisedParty;
  },
  screening: Awaited<ReturnType<typeof screenParties>>,
): Promise<void> {
  await transition(tx, { id, to: 'SCORE', actor: SYSTEM });
  await recordScreening(tx, id, screening);
  await recordThreshold(tx, id, thresholdNotes(deps.config, t.asset, t.amount));
  await transition(tx, { id, to: 'PENDING', actor: SYSTEM });
}

/** A lifecycle DuplicateTransactionRefError (or none given: a reference found taken) as the API's refusal. */
export function duplicateRef(err?: unknown): never {
  if (err === undefined || err instanceof DuplicateTransactionRefError) {
    throw new TravelRuleError(
      'invalid',
      'transaction_ref: this API key already has a travel rule transaction with this reference',
    );
  }
  throw err;
}

export async function mustGet(sql: Sql, id: string): Promise<TravelRuleTransaction> {
  const t = await getTransaction(sql, id);
  if (!t) throw new TravelRuleError('not_found', 'no travel rule transaction with this id');
  return t;
}

export function reasonOrThrow(reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new TravelRuleError('invalid', 'reason: a reason is required');
  if (reason.length > MAX_REASON_CHARS)
    throw new TravelRuleError('invalid', `reason: at most ${MAX_REASON_CHARS} characters`);
  return reason.trim();
}

export function addressOrThrow(network: string | null, address: string, field: string): string {
  if (!network) return address;
  const result = validateAddress(network, address);
  if (!result.ok)
    throw new TravelRuleError('invalid_address', `${field}: not a valid ${network} address`);
  return result.address;
}

export async function byRef(
  deps: TravelRuleDeps,
  apiKeyId: string,
  ref: string,
): Promise<TravelRuleTransaction> {
  const t = await findByRef(deps.sql, apiKeyId, ref);
  if (!t)
    throw new TravelRuleError(
      'not_found',
      'transaction_ref: this API key has no travel rule transaction with this reference',
    );
  return t;
}

/**
 * TRP's request-identifier names the transfer: its inquiry's, on every message of it (ours for an
 * outgoing transfer: the transaction's id; the originator's for an incoming one).
 */
export function transferRequestId(t: { id: string; counterparty_ref: string | null }): string {
  return t.counterparty_ref ?? t.id;
}

/**
 * A resolution or confirmation posted to one transfer's callback under another transfer's
 * request-identifier is refused (400), not applied: a peer that mixed up two transfers would
 * otherwise have one's approval, with its address, applied to the other, and read our answer
 * echoing the identifier as the other's. Compared without letter case (UUIDs).
 */
export function requestIdOrThrow(
  t: { id: string; counterparty_ref: string | null },
  given: string,
): void {
  const expected = transferRequestId(t);
  if (given.toLowerCase() !== expected.toLowerCase())
    throw new TravelRuleError(
      'invalid',
      `request-identifier: this callback is of the transfer ${expected}; every message of a transfer carries its request-identifier`,
    );
}

/**
 * A counterparty's callback URL, refused (400 on TRP) unless our messages may go there: personal
 * data only over https, no address outside travel_rule.trp_allow_cidrs, https to a VASP whose
 * certificates the directory pins (`pins`), as each message is checked when it is sent. Taken
 * and found unusable only when our answer was due, a transfer waited for good on a message that
 * could never go.
 */
export function callbackOrThrow(
  deps: TravelRuleDeps,
  url: string,
  field: string,
  pins: readonly string[] | undefined,
): string {
  const refusal = trpUrlRefusal(new URL(url), {
    allow: deps.allow,
    allowHttpLoopback: deps.config.allow_http_loopback,
    pins,
  });
  if (refusal) throw new TravelRuleError('invalid', `${field}: ${refusal}`);
  return url;
}

/**
 * Triggers of the history rows that keep the other VASP's word on a transfer that had ended here
 * before the word came (recordLateWord): a beneficiary's rejection of a withdrawal we will not
 * make; an originator's cancellation, or its transaction hash, of a deposit we rejected or
 * cancelled (or that it cancelled before).
 */
export const LATE_WORD = {
  rejection: 'other_vasp_reject_late',
  cancellation: 'counterparty_cancel_late',
  txHash: 'counterparty_tx_hash_late',
} as const;

/**
 * In the caller's transaction: locks the row of a transfer that ended here, for the other VASP's
 * late word on it, and returns what the word is checked against. StatusChangedError when the
 * status is no longer the one the caller saw (the word is then taken on the row as it is now).
 */
export async function lockEnded(
  tx: TransactionSql,
  t: { id: string; status: Status },
): Promise<{ tx_hash: string | null; counterparty_callback: string | null }> {
  const [now] = await tx<
    { status: Status; tx_hash: string | null; counterparty_callback: string | null }[]
  >`select status, tx_hash, counterparty_callback from travelrule_transactions where id = ${t.id} for update`;
  if (!now) throw new TravelRuleError('not_found', 'unknown callback URL');
  if (now.status !== t.status) throw new StatusChangedError(t.status, now.status);
  return now;
}

/**
 * In the caller's transaction: records the other VASP's late word on a transfer in an ended
 * status, which it keeps, as a history row from that status to itself (the actor, the trigger,
 * the reason given, the time), the row locked first. When a word of the same trigger was
 * recorded before, writes nothing and returns that one's reason and the transfer's tx_hash, for
 * the caller to tell a repeat (taken again) from a different word (refused).
 */
export async function recordLateWord(
  tx: TransactionSql,
  t: { id: string; status: Status },
  w: { trigger: (typeof LATE_WORD)[keyof typeof LATE_WORD]; actor: Actor; reason?: string },
): Promise<{ reason: string | null; txHash: string | null } | undefined> {
  const now = await lockEnded(tx, t);
  const [earlier] = await tx<{ reason: string | null }[]>`
    select reason from travelrule_history
    where transaction_id = ${t.id} and trigger = ${w.trigger} order by id limit 1`;
  if (earlier) return { reason: earlier.reason, txHash: now.tx_hash };
  await insertHistory(tx, {
    transactionId: t.id,
    from: t.status,
    to: t.status,
    trigger: w.trigger,
    actor: w.actor,
    reason: w.reason,
  });
  return undefined;
}

/**
 * The other VASP rejected or cancelled the transfer, or our inquiry never reached it:
 * OTHER_VASP_REJECTED, the reason kept as counterparty_reason (what tx_status shows), and the
 * caller's OTHER_VASP_REJECTED webhook, all in the caller's database transaction.
 */
export async function markOtherVaspRejected(
  tx: TransactionSql,
  t: { id: string; api_key_id: string },
  move: { from: Status; actor: Actor; reason: string },
): Promise<void> {
  await transition(tx, { id: t.id, to: 'OTHER_VASP_REJECTED', ...move });
  await updateCounterparty(tx, t.id, { reason: move.reason });
  await enqueueTravelRuleWebhook(tx, {
    apiKeyId: t.api_key_id,
    transactionId: t.id,
    status: 'OTHER_VASP_REJECTED',
  });
}
