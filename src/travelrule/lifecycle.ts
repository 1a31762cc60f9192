/**
 * The Travel Rule transaction lifecycle: the spec's 13 statuses and the one table of moves
 * between them. Nothing else decides whether a status may follow another.
 *
 * Each edge names its trigger, who takes it (the actor type) and the direction it applies to.
 * The spec's flows give most edges; where it says "not shown", the decisions are ours and are
 * marked (ours) below.
 *
 * | from                     | trigger                     | actor        | dir | to                       |
 * |--------------------------|-----------------------------|--------------|-----|--------------------------|
 * | (none)                   | create_tx                   | api_key      | out | CREATED                  |
 * | (none)                   | receive_transfer (protocol) | counterparty | in  | CREATED                  |
 * | (none)                   | receive_tx_without_protocol | api_key      | in  | APPROVED                 |
 * | CREATED                  | screening_started           | system       | both| SCORE                    |
 * | SCORE                    | screening_done              | system       | both| PENDING                  |
 * | PENDING                  | operator_accept             | operator     | out | OTHER_VASP_PENDING       |
 * | PENDING                  | operator_accept             | operator     | in  | WAITING_ADDRESS_DATA     |
 * | PENDING                  | operator_reject             | operator     | both| REJECTED                 |
 * | PENDING                  | counterparty_cancel (ours)  | counterparty | in  | OTHER_VASP_REJECTED      |
 * | OTHER_VASP_PENDING       | other_vasp_approve          | counterparty | out | OTHER_VASP_APPROVED      |
 * | OTHER_VASP_PENDING       | other_vasp_reject           | counterparty | out | OTHER_VASP_REJECTED      |
 * | OTHER_VASP_PENDING       | operator_cancel (ours)      | operator     | out | REJECTED                 |
 * | OTHER_VASP_PENDING       | operator_records_approval (ours) | operator | out | OTHER_VASP_APPROVED   |
 * | OTHER_VASP_PENDING       | operator_records_rejection (ours) | operator | out | OTHER_VASP_REJECTED  |
 * | OTHER_VASP_PENDING       | inquiry_undeliverable (ours) | system      | out | OTHER_VASP_REJECTED      |
 * | OTHER_VASP_APPROVED      | tx_hash_requested           | system       | out | WAITING_TX_HASH          |
 * | WAITING_TX_HASH          | send_tx_hash                | api_key      | out | COMPLETED                |
 * | WAITING_TX_HASH          | operator_cancel (ours)      | operator     | out | REJECTED                 |
 * | WAITING_ADDRESS_DATA     | send_address                | api_key      | in  | WAITING_FOR_CONFIRMATION |
 * | WAITING_ADDRESS_DATA     | operator_cancel (ours)      | operator     | in  | REJECTED                 |
 * | WAITING_ADDRESS_DATA     | counterparty_cancel (ours)  | counterparty | in  | OTHER_VASP_REJECTED      |
 * | WAITING_FOR_CONFIRMATION | counterparty_tx_hash        | counterparty | in  | TRANSACTION_CONFIRMED    |
 * | WAITING_FOR_CONFIRMATION | counterparty_cancel (ours)  | counterparty | in  | OTHER_VASP_REJECTED      |
 * | WAITING_FOR_CONFIRMATION | operator_cancel (ours)      | operator     | in  | REJECTED                 |
 *
 * inquiry_undeliverable: the beneficiary VASP refused our inquiry (a 4xx: a wrong endpoint or
 * Travel Address, a message it cannot read) or every attempt failed. The transfer cannot go on
 * as it is; the caller learns it as a rejection (OTHER_VASP_REJECTED webhook, tx_status says
 * why) and the operators see the refusal on the transaction.
 *
 * The two operator_records_* edges are for a beneficiary VASP reached by e-mail: it answers
 * outside the protocol (by e-mail or phone), and an operator records its answer, which then
 * takes the same path (and webhook) as an answer over TRP.
 *
 * Decisions on the statuses the spec maps to no trigger:
 * - CREATED (initial, transient): the record exists, screening has not run. Both protocol flows
 *   start here; the caller is answered `PENDING` only once screening has run (create_tx runs it
 *   in the same request), so CREATED and SCORE show in history, not in answers.
 * - SCORE (transient): AML screening of the parties' addresses is under way. Screening never
 *   decides: a risky result is recorded on the row and the operator decides on PENDING.
 * - PENDING: waiting for the operator (the spec's "pending operation in the dashboard").
 * - OTHER_VASP_APPROVED (transient): recorded when the other VASP approves, with the webhook of
 *   that name; the service then asks for the hash (WAITING_TX_HASH), in the same DB transaction.
 * - WAITING_TX_HASH: outgoing, approved, waiting for send_tx_hash from the caller.
 * - COMPLETED (terminal): the caller sent the hash; forwarding it to the other VASP is a job.
 * - APPROVED (terminal): receive_tx_without_protocol. The deposit already settled on chain and
 *   there is no protocol peer to answer, so there is no decision left to record as a status; the
 *   operator screens it from the stored screening result.
 * - REJECTED (terminal): our side said no: the operator rejected a pending transaction, or
 *   (ours) cancelled one still waiting on someone else (an unanswering VASP, a caller who cannot
 *   supply the hash or the beneficiary's address, an originator that never confirms a deposit
 *   we approved). Without this a transfer could wait forever.
 * - OTHER_VASP_REJECTED (terminal): the other side said no: for outgoing, the beneficiary VASP
 *   rejected; for incoming (ours), the originator VASP cancelled the transfer.
 * - TRANSACTION_CONFIRMED (terminal): incoming, the other VASP gave the on-chain hash.
 * Terminal statuses have no exits.
 */

import { PermanentError, RetryableError } from '../errors.js';
import { randomUUID } from 'node:crypto';
import type { Sql, TransactionSql } from '../db/index.js';
import { log } from '../log.js';
import { sealPayload, type Keyring } from './crypto.js';
import { insertHistory, insertTransaction, lockForTransition, updateStatus } from './store.js';

export { STATUSES, type Status, type Direction, type ActorType, type Actor } from './status.js';
import { type Actor, type ActorType, type Direction, STATUSES, type Status } from './status.js';

export interface Edge {
  to: Status;
  trigger: string;
  actor: ActorType;
  direction: Direction | 'both';
}

const edge = (
  to: Status,
  trigger: string,
  actor: ActorType,
  direction: Edge['direction'],
): Edge => ({ to, trigger, actor, direction });

/** How a transaction comes into being: its first status, the trigger and who takes it. */
export const CREATIONS: readonly Edge[] = [
  edge('CREATED', 'create_tx', 'api_key', 'outgoing'),
  edge('CREATED', 'receive_transfer', 'counterparty', 'incoming'),
  edge('APPROVED', 'receive_tx_without_protocol', 'api_key', 'incoming'),
];

/** Status → the moves allowed from it. Written once; see the table above. */
export const TRANSITIONS: Readonly<Record<Status, readonly Edge[]>> = {
  CREATED: [edge('SCORE', 'screening_started', 'system', 'both')],
  SCORE: [edge('PENDING', 'screening_done', 'system', 'both')],
  PENDING: [
    edge('OTHER_VASP_PENDING', 'operator_accept', 'operator', 'outgoing'),
    edge('WAITING_ADDRESS_DATA', 'operator_accept', 'operator', 'incoming'),
    edge('REJECTED', 'operator_reject', 'operator', 'both'),
    edge('OTHER_VASP_REJECTED', 'counterparty_cancel', 'counterparty', 'incoming'),
  ],
  OTHER_VASP_PENDING: [
    edge('OTHER_VASP_APPROVED', 'other_vasp_approve', 'counterparty', 'outgoing'),
    edge('OTHER_VASP_REJECTED', 'other_vasp_reject', 'counterparty', 'outgoing'),
    edge('REJECTED', 'operator_cancel', 'operator', 'outgoing'),
    edge('OTHER_VASP_APPROVED', 'operator_records_approval', 'operator', 'outgoing'),
    edge('OTHER_VASP_REJECTED', 'operator_records_rejection', 'operator', 'outgoing'),
    edge('OTHER_VASP_REJECTED', 'inquiry_undeliverable', 'system', 'outgoing'),
  ],
  OTHER_VASP_APPROVED: [edge('WAITING_TX_HASH', 'tx_hash_requested', 'system', 'outgoing')],
  WAITING_TX_HASH: [
    edge('COMPLETED', 'send_tx_hash', 'api_key', 'outgoing'),
    edge('REJECTED', 'operator_cancel', 'operator', 'outgoing'),
  ],
  WAITING_ADDRESS_DATA: [
    edge('WAITING_FOR_CONFIRMATION', 'send_address', 'api_key', 'incoming'),
    edge('REJECTED', 'operator_cancel', 'operator', 'incoming'),
    edge('OTHER_VASP_REJECTED', 'counterparty_cancel', 'counterparty', 'incoming'),
  ],
  WAITING_FOR_CONFIRMATION: [
    edge('TRANSACTION_CONFIRMED', 'counterparty_tx_hash', 'counterparty', 'incoming'),
    edge('OTHER_VASP_REJECTED', 'counterparty_cancel', 'counterparty', 'incoming'),
    // An originator that never confirms (it never got our approval, or went silent).
    edge('REJECTED', 'operator_cancel', 'operator', 'incoming'),
  ],
  REJECTED: [],
  APPROVED: [],
  COMPLETED: [],
  OTHER_VASP_REJECTED: [],
  TRANSACTION_CONFIRMED: [],
};

const applies = (e: Edge, direction?: Direction) =>
  !direction || e.direction === 'both' || e.direction === direction;

export function isStatus(value: string): value is Status {
  return (STATUSES as readonly string[]).includes(value);
}

export function isTerminal(status: Status): boolean {
  return TRANSITIONS[status].length === 0;
}

/** The statuses that may follow `from` (for `direction`, when given). */
export function nextStatuses(from: Status, direction?: Direction): Status[] {
  return [...new Set(TRANSITIONS[from].filter((e) => applies(e, direction)).map((e) => e.to))];
}

/** The edge from → to, for `direction` when given; undefined when the move is not allowed. */
export function findEdge(from: Status, to: Status, direction?: Direction): Edge | undefined {
  return TRANSITIONS[from].find((e) => e.to === to && applies(e, direction));
}

export function canTransition(from: Status, to: Status, direction?: Direction): boolean {
  return findEdge(from, to, direction) !== undefined;
}

/**
 * A move the table does not allow, or taken by the wrong kind of actor. The message names the
 * statuses and the actor type only: never a transaction's personal data.
 */
export class IllegalTransitionError extends PermanentError {
  constructor(
    readonly from: Status | null,
    readonly to: Status,
    readonly direction: Direction,
    readonly allowed: readonly Status[],
    actorProblem?: { actor: ActorType; expected: ActorType },
  ) {
    super(
      actorProblem
        ? `travel rule ${direction} transaction: ${from ?? '(none)'} → ${to} is taken by ${actorProblem.expected}, not ${actorProblem.actor}`
        : `travel rule ${direction} transaction: ${from ?? '(none)'} → ${to} is not allowed; allowed next: ${allowed.length ? allowed.join(', ') : 'none (terminal status)'}`,
    );
    this.name = 'IllegalTransitionError';
  }
}

/** The edge for this move, or an IllegalTransitionError. `from` null means creation. */
export function checkTransition(
  from: Status | null,
  to: Status,
  direction: Direction,
  actor: ActorType,
): Edge {
  const candidates =
    from === null
      ? CREATIONS.filter((e) => applies(e, direction))
      : TRANSITIONS[from].filter((e) => applies(e, direction));
  const allowed = [...new Set(candidates.map((e) => e.to))];
  const found =
    candidates.find((e) => e.to === to && e.actor === actor) ?? candidates.find((e) => e.to === to);
  if (!found) throw new IllegalTransitionError(from, to, direction, allowed);
  if (found.actor !== actor)
    throw new IllegalTransitionError(from, to, direction, allowed, {
      actor,
      expected: found.actor,
    });
  return found;
}

/** Runs `fn` in a transaction: a new one, or a savepoint of the caller's. */
function inTransaction<T>(
  sql: Sql | TransactionSql,
  fn: (tx: TransactionSql) => Promise<T>,
): Promise<T> {
  return ('savepoint' in sql ? sql.savepoint(fn) : sql.begin(fn)) as Promise<T>;
}

/** No travel rule transaction has this id. */
export class TransactionNotFoundError extends PermanentError {
  constructor(readonly id: string) {
    super(`no travel rule transaction ${id}`);
    this.name = 'TransactionNotFoundError';
  }
}

/** The caller decided on a status the row has since left (another decision came first). */
export class StatusChangedError extends RetryableError {
  constructor(
    readonly expected: Status,
    readonly actual: Status,
  ) {
    super(`travel rule transaction is ${actual} now, not ${expected}; nothing was changed`);
    this.name = 'StatusChangedError';
  }
}

/** The key already has a transaction with this transaction_ref. */
export class DuplicateTransactionRefError extends PermanentError {
  constructor() {
    super('a travel rule transaction with this transaction_ref already exists for the key');
    this.name = 'DuplicateTransactionRefError';
  }
}

export interface NewTransaction {
  apiKeyId: string;
  direction: Direction;
  transactionRef: string;
  asset: string;
  network?: string | null;
  /** Decimal string. */
  amount: string;
  decimals: number;
  beneficiaryVaspId?: string | null;
  counterpartyProtocol?: 'trp' | 'email' | null;
  counterpartyRef?: string | null;
  txHash?: string | null;
  /** The first status: CREATED, or APPROVED for receive_tx_without_protocol (see CREATIONS). */
  status: Status;
  actor: Actor;
  reason?: string | null;
  /** The IVMS101 originator/beneficiary data: stored encrypted only. */
  ivms101: unknown;
}

/**
 * Creates a transaction and its first history row (from null), in one database transaction.
 * The payload is sealed to the new row's id, chosen here before the insert.
 */
export async function createTransaction(
  sql: Sql | TransactionSql,
  keyring: Keyring,
  t: NewTransaction,
): Promise<{ id: string; status: Status }> {
  const edge = checkTransition(null, t.status, t.direction, t.actor.type);
  const id = randomUUID();
  const sealed = sealPayload(keyring, id, t.ivms101);
  try {
    await inTransaction(sql, async (tx) => {
      await insertTransaction(tx, {
        id,
        apiKeyId: t.apiKeyId,
        direction: t.direction,
        transactionRef: t.transactionRef,
        asset: t.asset,
        network: t.network ?? null,
        amount: t.amount,
        decimals: t.decimals,
        beneficiaryVaspId: t.beneficiaryVaspId ?? null,
        counterpartyProtocol: t.counterpartyProtocol ?? null,
        counterpartyRef: t.counterpartyRef ?? null,
        status: t.status,
        txHash: t.txHash ?? null,
        sealed,
      });
      await insertHistory(tx, {
        transactionId: id,
        from: null,
        to: t.status,
        trigger: edge.trigger,
        actor: t.actor,
        reason: t.reason,
      });
    });
  } catch (err) {
    if (
      (err as { code?: string }).code === '23505' &&
      (err as { constraint_name?: string }).constraint_name ===
        'travelrule_transactions_api_key_id_transaction_ref_key'
    ) {
      throw new DuplicateTransactionRefError();
    }
    throw err;
  }
  log.info(
    {
      travelrule_id: id,
      direction: t.direction,
      to_status: t.status,
      trigger: edge.trigger,
      actor_type: t.actor.type,
    },
    'travel rule transaction created',
  );
  return { id, status: t.status };
}

/**
 * Moves a transaction to `to`, in one database transaction: locks the row (SELECT … FOR
 * UPDATE), checks the move against the table for the row's direction and the actor's type,
 * updates the status (and the hash, when given) and appends the history row. An illegal move
 * throws IllegalTransitionError and writes nothing. `reason` is stored, never logged.
 *
 * `from`, when given, is the status the decision was taken on (an operator's screen): if the row
 * has left it, StatusChangedError, so that a reject meant for PENDING does not become a cancel of
 * a request another operator has just sent.
 */
export async function transition(
  sql: Sql | TransactionSql,
  m: {
    id: string;
    from?: Status;
    to: Status;
    actor: Actor;
    reason?: string | null;
    txHash?: string;
  },
): Promise<{ from: Status; to: Status; trigger: string }> {
  const done = await inTransaction(sql, async (tx) => {
    const row = await lockForTransition(tx, m.id);
    if (!row) throw new TransactionNotFoundError(m.id);
    if (m.from && row.status !== m.from) throw new StatusChangedError(m.from, row.status);
    const edge = checkTransition(row.status, m.to, row.direction, m.actor.type);
    await updateStatus(tx, m.id, m.to, m.txHash);
    await insertHistory(tx, {
      transactionId: m.id,
      from: row.status,
      to: m.to,
      trigger: edge.trigger,
      actor: m.actor,
      reason: m.reason,
    });
    return { from: row.status, to: m.to, trigger: edge.trigger };
  });
  log.info(
    {
      travelrule_id: m.id,
      from_status: done.from,
      to_status: done.to,
      trigger: done.trigger,
      actor_type: m.actor.type,
    },
    'travel rule status changed',
  );
  return done;
}
