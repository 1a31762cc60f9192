import type { AmlConfig } from '../config/aml.js';
import { randomToken } from '../ids.js';
import { validateAddress } from '../chains/address/index.js';
import type { TravelRuleConfig } from '../config/index.js';
import type { Sql, TransactionSql } from '../db/index.js';
import { log } from '../log.js';
import type { Keyring } from './crypto.js';
import { TravelRuleError } from './errors.js';
import type { NormalisedCreateTx, NormalisedParty, NormalisedReceiveTx } from './ivms101/index.js';
import { hashReason } from './ivms101/rules.js';
import {
  createTransaction,
  DuplicateTransactionRefError,
  IllegalTransitionError,
  StatusChangedError,
  transition,
  type Actor,
  type Status,
} from './lifecycle.js';
import { enqueueMessage } from './message-queue.js';
import { screenParties } from './screening.js';
import {
  findByCallbackToken,
  findByRef,
  getTransaction,
  recordScreening,
  recordThreshold,
  updateCounterparty,
  type TravelRuleTransaction,
} from './store.js';
import { thresholdNotes } from './threshold.js';
import type { Confirmation, InboundInquiry, Resolution } from './trp/messages.js';
import { TRP_VERSION } from './trp/messages.js';
import { findVaspByInboundToken, getVasp, type Vasp } from './vasps.js';
import { enqueueTravelRuleWebhook, type SealedParties } from './webhooks.js';

/**
 * The Travel Rule flows of the spec, on top of the lifecycle (lifecycle.ts decides which moves
 * are allowed; this module decides which move a request means, and what goes with it: the
 * screening, the message to the other VASP, the webhook to the caller), each in one database
 * transaction with its side effects (messages and webhooks are rows and jobs, sent by workers).
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
  /** Networks this appliance indexes (screening knows an address's age only there). */
  indexedNetworks: readonly string[];
  /** Where other VASPs reach this appliance (callbacks and view links). */
  publicUrl: string;
  maxAttempts: number;
}

export const REJECTION_SENT = 'rejected by the compliance review of the counterparty VASP';
export const CANCELLATION_SENT = 'canceled by the compliance review of the counterparty VASP';

const SYSTEM: Actor = { type: 'system', id: 'tollgate' };
const MAX_REASON_CHARS = 1000;

/** Runs `fn`, turning the lifecycle's refusals into TravelRuleError('state'). */
async function moving<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof IllegalTransitionError || err instanceof StatusChangedError)
      throw new TravelRuleError('state', err.message);
    throw err;
  }
}

async function screenAndPend(
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

function duplicateRef(err: unknown): never {
  if (err instanceof DuplicateTransactionRefError) {
    throw new TravelRuleError(
      'invalid',
      'transaction_ref: this API key already has a travel rule transaction with this reference',
    );
  }
  throw err;
}

/** create_tx: validated input → screened, stored, PENDING for the operators. */
export async function createOutgoing(
  deps: TravelRuleDeps,
  apiKeyId: string,
  input: NormalisedCreateTx,
): Promise<{ id: string; status: 'PENDING' }> {
  let vasp: Vasp | undefined;
  if (input.beneficiary_vasp_id) {
    vasp = await getVasp(deps.sql, input.beneficiary_vasp_id);
    if (!vasp)
      throw new TravelRuleError(
        'invalid',
        'beneficiary_vasp_id: no VASP with this uid (see GET /v2/travelrule/list_vasps)',
      );
  }
  const parties: SealedParties = { originator: input.originator, beneficiary: input.beneficiary };
  const screening = await screenParties(deps.sql, deps.aml, deps.indexedNetworks, {
    network: input.transaction_network,
    ...parties,
  });
  const id = await deps.sql.begin(async (tx) => {
    const created = await createTransaction(tx, deps.keyring, {
      apiKeyId,
      direction: 'outgoing',
      transactionRef: input.transaction_ref,
      asset: input.transaction_asset,
      network: input.transaction_network,
      amount: input.transaction_amount,
      decimals: input.transaction_asset_decimals,
      beneficiaryVaspId: vasp?.uid ?? null,
      status: 'CREATED',
      actor: { type: 'api_key', id: apiKeyId },
      ivms101: parties,
    }).catch(duplicateRef);
    if (vasp) await updateCounterparty(tx, created.id, { vaspId: vasp.uid });
    await screenAndPend(
      deps,
      tx,
      created.id,
      {
        network: input.transaction_network,
        asset: input.transaction_asset,
        amount: input.transaction_amount,
        ...parties,
      },
      screening,
    );
    return created.id;
  });
  return { id, status: 'PENDING' };
}

/** receive_tx_without_protocol: a deposit that settled without a protocol peer → APPROVED, screened. */
export async function receiveWithoutProtocol(
  deps: TravelRuleDeps,
  apiKeyId: string,
  input: NormalisedReceiveTx,
): Promise<{ id: string; status: 'APPROVED' }> {
  const parties: SealedParties & { created_at: string } = {
    originator: input.originator,
    beneficiary: input.beneficiary,
    created_at: input.created_at,
  };
  const screening = await screenParties(deps.sql, deps.aml, deps.indexedNetworks, {
    network: input.transaction_network,
    ...parties,
  });
  const id = await deps.sql.begin(async (tx) => {
    const created = await createTransaction(tx, deps.keyring, {
      apiKeyId,
      direction: 'incoming',
      transactionRef: input.transaction_ref,
      asset: input.transaction_asset,
      network: input.transaction_network,
      amount: input.transaction_amount,
      decimals: input.transaction_asset_decimals,
      txHash: input.transaction_hash,
      status: 'APPROVED',
      actor: { type: 'api_key', id: apiKeyId },
      ivms101: parties,
    }).catch(duplicateRef);
    await recordScreening(tx, created.id, screening);
    await recordThreshold(
      tx,
      created.id,
      thresholdNotes(deps.config, input.transaction_asset, input.transaction_amount),
    );
    return created.id;
  });
  return { id, status: 'APPROVED' };
}

async function mustGet(sql: Sql, id: string): Promise<TravelRuleTransaction> {
  const t = await getTransaction(sql, id);
  if (!t) throw new TravelRuleError('not_found', 'no travel rule transaction with this id');
  return t;
}

function reasonOrThrow(reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new TravelRuleError('invalid', 'reason: a reason is required');
  if (reason.length > MAX_REASON_CHARS)
    throw new TravelRuleError('invalid', `reason: at most ${MAX_REASON_CHARS} characters`);
  return reason.trim();
}

const EMAIL_RE = /^[^\s@<>(),;:"]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$/;

/**
 * The operator accepts a PENDING transaction. Outgoing: it goes to the beneficiary VASP, over
 * TRP when the directory has an endpoint, else by e-mail (the VASP's address, or `email` for a
 * VASP outside the directory). Incoming: the caller is asked for the deposit address.
 */
export async function acceptByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  opts: { email?: string } = {},
): Promise<Status> {
  const t = await mustGet(deps.sql, id);
  const actor: Actor = { type: 'operator', id: operator };
  if (t.direction === 'incoming') {
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, { id, from: 'PENDING', to: 'WAITING_ADDRESS_DATA', actor });
        await enqueueTravelRuleWebhook(tx, {
          apiKeyId: t.api_key_id,
          transactionId: id,
          status: 'WAITING_ADDRESS_DATA',
        });
      }),
    );
    return 'WAITING_ADDRESS_DATA';
  }
  if (opts.email !== undefined && !EMAIL_RE.test(opts.email))
    throw new TravelRuleError('invalid', 'email: not an e-mail address');
  const vasp = t.counterparty_vasp_id ? await getVasp(deps.sql, t.counterparty_vasp_id) : undefined;
  if (t.status !== 'PENDING')
    throw new TravelRuleError(
      'state',
      `the transaction is ${t.status}; only a PENDING one can be accepted`,
    );
  if (vasp?.trp_endpoint && !opts.email) {
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, { id, from: 'PENDING', to: 'OTHER_VASP_PENDING', actor });
        await updateCounterparty(tx, id, { protocol: 'trp', callbackToken: randomToken() });
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_inquiry',
          maxAttempts: deps.maxAttempts,
        });
      }),
    );
    return 'OTHER_VASP_PENDING';
  }
  const email = opts.email ?? vasp?.email ?? undefined;
  if (!email)
    throw new TravelRuleError(
      'invalid',
      'email: the beneficiary VASP has no TRP endpoint and no e-mail address in the directory; give the address to send the view link to',
    );
  if (!deps.config.smtp_url)
    throw new TravelRuleError(
      'unavailable',
      'no SMTP relay is configured (travel_rule.smtp_url): the e-mail fallback cannot send',
    );
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, { id, from: 'PENDING', to: 'OTHER_VASP_PENDING', actor });
      await updateCounterparty(tx, id, { protocol: 'email', email });
      await enqueueMessage(tx, {
        transactionId: id,
        kind: 'email_inquiry',
        maxAttempts: deps.maxAttempts,
      });
    }),
  );
  return 'OTHER_VASP_PENDING';
}

/** The operator rejects a PENDING transaction, with a reason kept in the history. */
export async function rejectByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  reason: unknown,
): Promise<Status> {
  const why = reasonOrThrow(reason);
  const t = await mustGet(deps.sql, id);
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id,
        from: 'PENDING',
        to: 'REJECTED',
        actor: { type: 'operator', id: operator },
        reason: why,
      });
      if (t.direction === 'incoming' && t.counterparty_protocol === 'trp') {
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_resolution',
          params: { rejected: REJECTION_SENT },
          maxAttempts: deps.maxAttempts,
        });
      }
    }),
  );
  return 'REJECTED';
}

/**
 * The operator stops a transaction that waits on someone else (an unanswering VASP, a caller
 * who cannot give the hash or the deposit address). The other VASP is told when it can be.
 */
export async function cancelByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  reason: unknown,
): Promise<Status> {
  const why = reasonOrThrow(reason);
  const t = await mustGet(deps.sql, id);
  if (!['OTHER_VASP_PENDING', 'WAITING_TX_HASH', 'WAITING_ADDRESS_DATA'].includes(t.status)) {
    throw new TravelRuleError(
      'state',
      `the transaction is ${t.status}; only one waiting on the other VASP or on the caller can be cancelled`,
    );
  }
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id,
        from: t.status,
        to: 'REJECTED',
        actor: { type: 'operator', id: operator },
        reason: why,
      });
      if (t.counterparty_protocol !== 'trp') return;
      // Approved outgoing: the beneficiary VASP waits for a confirmation; incoming: the originator for a resolution.
      if (t.status === 'WAITING_TX_HASH')
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_confirmation',
          params: { canceled: CANCELLATION_SENT },
          maxAttempts: deps.maxAttempts,
        });
      if (t.status === 'WAITING_ADDRESS_DATA')
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_resolution',
          params: { rejected: REJECTION_SENT },
          maxAttempts: deps.maxAttempts,
        });
    }),
  );
  return 'REJECTED';
}

/**
 * An operator records the answer of a beneficiary VASP reached by e-mail (it has no protocol
 * to answer with). The answer then takes the path of one that came over TRP.
 */
export async function recordAnswerByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  answer: { approved: true; address?: string } | { rejected: string },
): Promise<Status> {
  const t = await mustGet(deps.sql, id);
  if (t.counterparty_protocol === 'trp')
    throw new TravelRuleError(
      'state',
      'this beneficiary VASP answers over TRP; its answer cannot be recorded by hand',
    );
  const actor: Actor = { type: 'operator', id: operator };
  if ('rejected' in answer) {
    const why = reasonOrThrow(answer.rejected);
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, {
          id,
          from: 'OTHER_VASP_PENDING',
          to: 'OTHER_VASP_REJECTED',
          actor,
          reason: why,
        });
        await updateCounterparty(tx, id, { reason: why });
        await enqueueTravelRuleWebhook(tx, {
          apiKeyId: t.api_key_id,
          transactionId: id,
          status: 'OTHER_VASP_REJECTED',
        });
      }),
    );
    return 'OTHER_VASP_REJECTED';
  }
  const address =
    answer.address === undefined ? undefined : addressOrThrow(t.network, answer.address, 'address');
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, { id, from: 'OTHER_VASP_PENDING', to: 'OTHER_VASP_APPROVED', actor });
      if (address) await updateCounterparty(tx, id, { beneficiaryAddress: address });
      await enqueueTravelRuleWebhook(tx, {
        apiKeyId: t.api_key_id,
        transactionId: id,
        status: 'OTHER_VASP_APPROVED',
      });
      await transition(tx, { id, to: 'WAITING_TX_HASH', actor: SYSTEM });
    }),
  );
  return 'WAITING_TX_HASH';
}

function addressOrThrow(network: string | null, address: string, field: string): string {
  if (!network) return address;
  const result = validateAddress(network, address);
  if (!result.ok)
    throw new TravelRuleError('invalid_address', `${field}: not a valid ${network} address`);
  return result.address;
}

async function byRef(
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

/** send_tx_hash: the caller paid out an approved withdrawal; the hash goes to the beneficiary VASP. */
export async function sendTxHash(
  deps: TravelRuleDeps,
  apiKeyId: string,
  ref: string,
  hash: string,
): Promise<void> {
  const t = await byRef(deps, apiKeyId, ref);
  if (t.direction !== 'outgoing')
    throw new TravelRuleError(
      'state',
      'transaction_ref: send_tx_hash is for withdrawals (create_tx); this is a deposit',
    );
  if (t.status !== 'WAITING_TX_HASH')
    throw new TravelRuleError(
      'state',
      `the transaction is ${t.status}; send_tx_hash is taken once the beneficiary VASP approved (WAITING_TX_HASH)`,
    );
  const reason = t.network
    ? hashReason(t.network, hash)
    : /^\S{1,200}$/.test(hash)
      ? null
      : 'must be a hash without whitespace';
  if (reason)
    throw new TravelRuleError(
      'invalid',
      `transaction_hash: ${reason}${t.network ? ` on ${t.network}` : ''}`,
    );
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id: t.id,
        from: 'WAITING_TX_HASH',
        to: 'COMPLETED',
        actor: { type: 'api_key', id: apiKeyId },
        txHash: hash,
      });
      const kind = t.counterparty_protocol === 'trp' ? 'trp_confirmation' : 'email_tx_hash';
      await enqueueMessage(tx, {
        transactionId: t.id,
        kind,
        params: { txid: hash },
        maxAttempts: deps.maxAttempts,
      });
    }),
  );
}

/** send_address: the caller's deposit address for an accepted incoming transfer; the originator VASP is told (approved). */
export async function sendAddress(
  deps: TravelRuleDeps,
  apiKeyId: string,
  ref: string,
  address: string,
): Promise<void> {
  const t = await byRef(deps, apiKeyId, ref);
  if (t.direction !== 'incoming' || t.counterparty_protocol !== 'trp')
    throw new TravelRuleError(
      'state',
      'transaction_ref: send_address is for deposits that came over the protocol',
    );
  if (t.status !== 'WAITING_ADDRESS_DATA')
    throw new TravelRuleError(
      'state',
      `the transaction is ${t.status}; send_address is taken after an operator accepted it (WAITING_ADDRESS_DATA)`,
    );
  const stored = addressOrThrow(t.network, address, 'address');
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id: t.id,
        from: 'WAITING_ADDRESS_DATA',
        to: 'WAITING_FOR_CONFIRMATION',
        actor: { type: 'api_key', id: apiKeyId },
      });
      await updateCounterparty(tx, t.id, { beneficiaryAddress: stored });
      await enqueueMessage(tx, {
        transactionId: t.id,
        kind: 'trp_resolution',
        params: { approved: true },
        maxAttempts: deps.maxAttempts,
      });
    }),
  );
}

/** The API key that receives incoming transfers: the configured one, else the oldest active key. */
async function incomingKey(deps: TravelRuleDeps): Promise<string | undefined> {
  const name = deps.config.incoming_key_name;
  const [row] = name
    ? await deps.sql<
        { id: string }[]
      >`select id from api_keys where name = ${name} and revoked_at is null order by id limit 1`
    : await deps.sql<
        { id: string }[]
      >`select id from api_keys where revoked_at is null order by id limit 1`;
  return row ? String(row.id) : undefined;
}

/**
 * An inbound transfer inquiry from a directory VASP (known by the token of its inbound URL):
 * stored, screened, PENDING for the operators, answered "deferred" ({version}); the resolution
 * follows to its callback once an operator and the caller have acted. A repeated inquiry (same
 * request-identifier from the same VASP) is answered the same and stored once.
 */
export async function receiveInquiry(
  deps: TravelRuleDeps,
  token: string,
  inquiry: InboundInquiry,
  requestId: string,
): Promise<Resolution> {
  const vasp = await findVaspByInboundToken(deps.sql, token);
  if (!vasp) throw new TravelRuleError('not_found', 'unknown inquiry URL');
  const apiKeyId = await incomingKey(deps);
  if (!apiKeyId) throw new TravelRuleError('unavailable', 'this VASP cannot take transfers yet');
  const ref = `trp-${requestId}`;
  const existing = await findByRef(deps.sql, apiKeyId, ref);
  if (existing) {
    if (existing.counterparty_vasp_id === vasp.uid) return { version: TRP_VERSION };
    throw new TravelRuleError('state', 'request-identifier already used');
  }
  const parties: SealedParties = {
    originator: inquiry.originator,
    beneficiary: inquiry.beneficiary,
  };
  const network = inquiry.network_resolved;
  const screening = await screenParties(deps.sql, deps.aml, deps.indexedNetworks, {
    network,
    ...parties,
  });
  await deps.sql.begin(async (tx) => {
    const created = await createTransaction(tx, deps.keyring, {
      apiKeyId,
      direction: 'incoming',
      transactionRef: ref,
      asset: inquiry.asset,
      network,
      amount: inquiry.amount,
      decimals: inquiry.decimals,
      status: 'CREATED',
      actor: { type: 'counterparty', id: vasp.uid },
      ivms101: parties,
      counterpartyProtocol: 'trp',
      counterpartyRef: requestId,
    });
    await updateCounterparty(tx, created.id, {
      vaspId: vasp.uid,
      callback: inquiry.callback,
      callbackToken: randomToken(),
    });
    await screenAndPend(
      deps,
      tx,
      created.id,
      { network, asset: inquiry.asset, amount: inquiry.amount, ...parties },
      screening,
    );
  });
  log.info({ vasp_uid: vasp.uid, request_id: requestId }, 'travel rule inquiry received');
  return { version: TRP_VERSION };
}

/**
 * The beneficiary VASP's answer to our inquiry: POSTed to our callback, or in the inquiry's
 * response. Deferred ({version}) changes nothing. A repeat of an answer already applied is
 * accepted and changes nothing.
 */
export async function applyResolution(
  deps: TravelRuleDeps,
  t: TravelRuleTransaction,
  resolution: Resolution,
): Promise<void> {
  if ('version' in resolution) return;
  const actor: Actor = { type: 'counterparty', id: t.counterparty_vasp_id ?? 'unknown' };
  if ('approved' in resolution) {
    if (t.status === 'WAITING_TX_HASH' || t.status === 'COMPLETED') return;
    const address = addressOrThrow(t.network, resolution.approved.address, 'approved.address');
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, {
          id: t.id,
          from: 'OTHER_VASP_PENDING',
          to: 'OTHER_VASP_APPROVED',
          actor,
        });
        await updateCounterparty(tx, t.id, {
          beneficiaryAddress: address,
          callback: resolution.approved.callback,
        });
        await enqueueTravelRuleWebhook(tx, {
          apiKeyId: t.api_key_id,
          transactionId: t.id,
          status: 'OTHER_VASP_APPROVED',
        });
        await transition(tx, { id: t.id, to: 'WAITING_TX_HASH', actor: SYSTEM });
      }),
    );
    return;
  }
  if (t.status === 'OTHER_VASP_REJECTED') return;
  const reason = resolution.rejected.slice(0, MAX_REASON_CHARS);
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id: t.id,
        from: 'OTHER_VASP_PENDING',
        to: 'OTHER_VASP_REJECTED',
        actor,
        reason,
      });
      await updateCounterparty(tx, t.id, { reason });
      await enqueueTravelRuleWebhook(tx, {
        apiKeyId: t.api_key_id,
        transactionId: t.id,
        status: 'OTHER_VASP_REJECTED',
      });
    }),
  );
}

export async function receiveResolution(
  deps: TravelRuleDeps,
  token: string,
  resolution: Resolution,
): Promise<void> {
  const t = await findByCallbackToken(deps.sql, token);
  if (t?.direction !== 'outgoing') throw new TravelRuleError('not_found', 'unknown callback URL');
  await applyResolution(deps, t, resolution);
}

/** The originator VASP's confirmation of a deposit we approved: the txid, or a cancellation. */
export async function receiveConfirmation(
  deps: TravelRuleDeps,
  token: string,
  confirmation: Confirmation,
): Promise<void> {
  const t = await findByCallbackToken(deps.sql, token);
  if (t?.direction !== 'incoming') throw new TravelRuleError('not_found', 'unknown callback URL');
  const actor: Actor = { type: 'counterparty', id: t.counterparty_vasp_id ?? 'unknown' };
  if ('txid' in confirmation) {
    if (t.status === 'TRANSACTION_CONFIRMED' && t.tx_hash === confirmation.txid) return;
    const reason = t.network ? hashReason(t.network, confirmation.txid) : null;
    if (reason) throw new TravelRuleError('invalid', `txid: ${reason} on ${t.network}`);
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, {
          id: t.id,
          from: 'WAITING_FOR_CONFIRMATION',
          to: 'TRANSACTION_CONFIRMED',
          actor,
          txHash: confirmation.txid,
        });
        await enqueueTravelRuleWebhook(tx, {
          apiKeyId: t.api_key_id,
          transactionId: t.id,
          status: 'TRANSACTION_CONFIRMED',
          txid: confirmation.txid,
        });
      }),
    );
    return;
  }
  if (t.status === 'OTHER_VASP_REJECTED') return;
  const reason = confirmation.canceled.slice(0, MAX_REASON_CHARS);
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, { id: t.id, from: t.status, to: 'OTHER_VASP_REJECTED', actor, reason });
      await updateCounterparty(tx, t.id, { reason });
      await enqueueTravelRuleWebhook(tx, {
        apiKeyId: t.api_key_id,
        transactionId: t.id,
        status: 'OTHER_VASP_REJECTED',
      });
    }),
  );
}
