import { log } from '../log.js';
import { checkTransferSender, type TrpPeer } from './peer.js';
import { TravelRuleError } from './errors.js';
import type { NormalisedCreateTx } from './ivms101/index.js';
import { canonicalHash, hashReason } from './ivms101/rules.js';
import { createTransaction, transition, type Actor } from './lifecycle.js';
import { enqueueMessage } from './sending/queue.js';
import { screenParties } from './screening.js';
import {
  findByCallbackToken,
  findByRef,
  updateCounterparty,
  type TravelRuleTransaction,
} from './store.js';
import { thresholdNotes, type ThresholdNote } from './threshold.js';
import type { Screening } from './screening.js';
import type { Resolution } from './trp/messages.js';
import { getVasp, type Vasp } from './vasps.js';
import { enqueueTravelRuleWebhook, type SealedParties } from './webhooks.js';

import {
  CANCELLATION_SENT,
  SYSTEM,
  MAX_REASON_CHARS,
  moving,
  screenAndPend,
  duplicateRef,
  addressOrThrow,
  byRef,
  type TravelRuleDeps,
  callbackOrThrow,
  requestIdOrThrow,
  markOtherVaspRejected,
  onFreshRowIfMoved,
  LATE_WORD,
  lockEnded,
  recordLateWord,
} from './flow.js';

/**
 * Withdrawals: our customer sends to a customer of another VASP (create_tx), the inquiry goes
 * out once an operator accepted it, the beneficiary VASP's answer comes back (applyResolution),
 * and the caller's transaction hash follows (send_tx_hash).
 */

/** What create_tx would store, found without storing anything: check_tx answers with it. */
export interface OutgoingCheck {
  network: string;
  screening: Screening;
  threshold: ThresholdNote[];
}

/**
 * Every check create_tx makes (the input was validated by parseTravelRuleInput already): the
 * beneficiary VASP is in the directory, the reference is new for the key, and the parties'
 * screening and the threshold notes. Stores nothing and queues nothing.
 */
export async function checkOutgoing(
  deps: TravelRuleDeps,
  apiKeyId: string,
  input: NormalisedCreateTx,
): Promise<OutgoingCheck & { vasp: Vasp | undefined }> {
  let vasp: Vasp | undefined;
  if (input.beneficiary_vasp_id) {
    vasp = await getVasp(deps.sql, input.beneficiary_vasp_id);
    if (!vasp)
      throw new TravelRuleError(
        'invalid',
        'beneficiary_vasp_id: no VASP with this uid (see GET /v2/travelrule/list_vasps)',
      );
  }
  // Its answers are taken only from the certificate the directory pins for the VASP behind it.
  if (input.beneficiary_travel_address && !vasp && deps.config.trp_require_client_cert)
    throw new TravelRuleError(
      'invalid',
      'beneficiary_vasp_id: required with beneficiary_travel_address: the answer to the inquiry is taken only from a directory VASP whose TLS certificate is pinned',
    );
  if (await findByRef(deps.sql, apiKeyId, input.transaction_ref)) duplicateRef();
  const screening = await screenParties(deps.sql, deps.aml, deps.indexedNetworks, {
    network: input.transaction_network,
    originator: input.originator,
    beneficiary: input.beneficiary,
  });
  return {
    vasp,
    network: input.transaction_network,
    screening,
    threshold: thresholdNotes(deps.config, input.transaction_asset, input.transaction_amount),
  };
}

/** create_tx: validated input → screened, stored, PENDING for the operators. */
export async function createOutgoing(
  deps: TravelRuleDeps,
  apiKeyId: string,
  input: NormalisedCreateTx,
): Promise<{ id: string; status: 'PENDING' }> {
  const { vasp, screening } = await checkOutgoing(deps, apiKeyId, input);
  const parties: SealedParties = { originator: input.originator, beneficiary: input.beneficiary };
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
    if (vasp || input.beneficiary_travel_address)
      await updateCounterparty(tx, created.id, {
        vaspId: vasp?.uid ?? null,
        travelAddress: input.beneficiary_travel_address ?? null,
      });
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

/** send_tx_hash: the caller paid out an approved withdrawal; the hash goes to the beneficiary VASP. */
export async function sendTxHash(
  deps: TravelRuleDeps,
  apiKeyId: string,
  ref: string,
  given: string,
): Promise<void> {
  const t = await byRef(deps, apiKeyId, ref);
  // One letter case: a retry in another is the same hash, and the peer gets the usual form.
  const hash = canonicalHash(t.network, given);
  if (t.direction !== 'outgoing')
    throw new TravelRuleError(
      'state',
      'transaction_ref: send_tx_hash is for withdrawals (create_tx); this is a deposit',
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
    onFreshRowIfMoved(deps.sql, t, async (row) => {
      // The same hash again (a retry after a lost answer, even one racing the first) is done.
      if (row.status === 'COMPLETED' && row.tx_hash === hash) return;
      if (row.status !== 'WAITING_TX_HASH')
        throw new TravelRuleError(
          'state',
          `the transaction is ${row.status}; send_tx_hash is taken once the beneficiary VASP approved (WAITING_TX_HASH)`,
        );
      await deps.sql.begin(async (tx) => {
        await transition(tx, {
          id: row.id,
          from: 'WAITING_TX_HASH',
          to: 'COMPLETED',
          actor: { type: 'api_key', id: apiKeyId },
          txHash: hash,
        });
        const kind = row.counterparty_protocol === 'trp' ? 'trp_confirmation' : 'email_tx_hash';
        await enqueueMessage(tx, {
          transactionId: row.id,
          kind,
          params: { txid: hash },
          maxAttempts: deps.maxAttempts,
        });
      });
    }),
  );
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
    const address = addressOrThrow(t.network, resolution.approved.address, 'approved.address');
    const callback = resolution.approved.callback;
    // Where our confirmation will go: to the beneficiary VASP's server, held to its pins.
    const vasp = t.counterparty_vasp_id
      ? await getVasp(deps.sql, t.counterparty_vasp_id)
      : undefined;
    callbackOrThrow(deps, callback, 'approved.callback', vasp?.trp_tls_fingerprints);
    return moving(() =>
      onFreshRowIfMoved(deps.sql, t, async (row) => {
        if (await endedHere(deps, row)) return cancelLateApproval(deps, row, callback);
        if (row.status === 'REJECTED' || row.status === 'OTHER_VASP_REJECTED')
          throw rejectedBefore(row.status);
        if (row.status === 'WAITING_TX_HASH' || row.status === 'COMPLETED') {
          // The same approval again (a retry) changes nothing; a different one is refused, as a
          // late rejection is: the address the caller paid or will pay to stays the one approved.
          if (address === row.beneficiary_address && callback === row.counterparty_callback) return;
          throw new TravelRuleError(
            'state',
            `the transfer is ${row.status}: it was approved already, and a different approval is refused`,
          );
        }
        await deps.sql.begin(async (tx) => {
          await transition(tx, {
            id: row.id,
            from: 'OTHER_VASP_PENDING',
            to: 'OTHER_VASP_APPROVED',
            actor,
          });
          await updateCounterparty(tx, row.id, { beneficiaryAddress: address, callback });
          await enqueueTravelRuleWebhook(tx, {
            apiKeyId: row.api_key_id,
            transactionId: row.id,
            status: 'OTHER_VASP_APPROVED',
          });
          await transition(tx, { id: row.id, to: 'WAITING_TX_HASH', actor: SYSTEM });
        });
      }),
    );
  }
  const reason = resolution.rejected.slice(0, MAX_REASON_CHARS);
  return moving(() =>
    onFreshRowIfMoved(deps.sql, t, async (row) => {
      if (await endedHere(deps, row)) return takeLateRejection(deps, row, actor, reason);
      // A rejection after its own approval contradicts it: refused, so that the beneficiary knows
      // it was not taken (the caller may be sending the funds); an operator can still cancel.
      if (row.status === 'WAITING_TX_HASH' || row.status === 'COMPLETED')
        throw new TravelRuleError(
          'state',
          `the transfer is ${row.status}: the beneficiary VASP approved it already, and a rejection after its approval is refused`,
        );
      if (row.status === 'OTHER_VASP_REJECTED' || row.status === 'REJECTED') {
        // The same rejection again (a retry) changes nothing; one in other words is refused, as
        // a different approval is: the reason the caller was given stays the first.
        if ((row.counterparty_reason ?? '') === reason) return;
        throw new TravelRuleError(
          'state',
          'the transfer was rejected already, for another reason: a different rejection is refused',
        );
      }
      await deps.sql.begin((tx) =>
        markOtherVaspRejected(tx, row, { from: 'OTHER_VASP_PENDING', actor, reason }),
      );
    }),
  );
}

/** The refusal of an approval that comes after the beneficiary VASP's own rejection. */
function rejectedBefore(status: string): TravelRuleError {
  return new TravelRuleError(
    'state',
    `the transfer is ${status}: the beneficiary VASP rejected it, and an approval after its rejection is refused`,
  );
}

/**
 * Whether this side ended the transfer before the beneficiary VASP's word on it came: an
 * operator cancelled it (REJECTED), or its inquiry did not go through (OTHER_VASP_REJECTED by
 * Tollgate: its attempts ran out unanswered, or the beneficiary's server refused it:
 * inquiryUndeliverable), and the beneficiary has not rejected it since (a late rejection,
 * recorded by takeLateRejection, is its word). Not when the beneficiary itself rejected it, in a
 * resolution or as an operator recorded: an approval after that contradicts it.
 */
async function endedHere(deps: TravelRuleDeps, row: TravelRuleTransaction): Promise<boolean> {
  if (row.status !== 'REJECTED' && row.status !== 'OTHER_VASP_REJECTED') return false;
  const [last] = await deps.sql<{ actor_type: string }[]>`
    select actor_type from travelrule_history
    where transaction_id = ${row.id} and to_status = ${row.status}
    order by id desc limit 1`;
  return row.status === 'REJECTED'
    ? last?.actor_type !== 'counterparty'
    : last?.actor_type === 'system';
}

/**
 * A rejection of a transfer this side will not make (endedHere): both sides agree no funds move,
 * so it is taken (204), not refused as a contradiction. The transfer keeps its status; its
 * history records the beneficiary's rejection (LATE_WORD.rejection, with its reason), which
 * becomes `counterparty_reason` (for a transfer whose inquiry seemed not to go through, in place
 * of ours: the beneficiary had it after all). The backend hears nothing more: it was told the
 * transfer ended. The same rejection again changes nothing; one in other words is refused, as
 * for any rejection.
 */
async function takeLateRejection(
  deps: TravelRuleDeps,
  row: TravelRuleTransaction,
  actor: Actor,
  reason: string,
): Promise<void> {
  const taken = await deps.sql.begin(async (tx) => {
    const earlier = await recordLateWord(tx, row, { trigger: LATE_WORD.rejection, actor, reason });
    if (earlier) {
      if ((earlier.reason ?? '') === reason) return false;
      throw new TravelRuleError(
        'state',
        'the transfer was rejected already, for another reason: a different rejection is refused',
      );
    }
    await updateCounterparty(tx, row.id, { reason });
    return true;
  });
  if (taken)
    log.info(
      { travelrule_id: row.id, status: row.status },
      'travel rule rejection of a transfer we will not make: taken, its reason recorded',
    );
}

/**
 * An approval of a transfer this side will not make: an operator cancelled it (REJECTED) while
 * it waited on the beneficiary VASP, or its inquiry did not go through (OTHER_VASP_REJECTED,
 * endedHere) while the beneficiary had it after all. The transfer had no
 * callback to tell the beneficiary on: the approval, come late, is taken (204) and answered as
 * TRP answers a transfer the originator will not make, with a confirmation carrying `canceled`
 * on the approval's callback. Once: the same approval again (a retry, or one repeated after a
 * cancellation sent already) changes nothing; one naming another callback is refused. The
 * transfer keeps its status, and its caller hears nothing more.
 */
async function cancelLateApproval(
  deps: TravelRuleDeps,
  row: TravelRuleTransaction,
  callback: string,
): Promise<void> {
  const queued = await deps.sql.begin(async (tx) => {
    const locked = await lockEnded(tx, row);
    // A late rejection recorded since endedHere looked: the approval now contradicts it.
    const [rejected] = await tx`
      select 1 from travelrule_history
      where transaction_id = ${row.id} and trigger = ${LATE_WORD.rejection} limit 1`;
    if (rejected) throw rejectedBefore(row.status);
    const [told] = await tx`
      select 1 from travelrule_messages
      where transaction_id = ${row.id} and kind = 'trp_confirmation' limit 1`;
    if (told) {
      if (locked.counterparty_callback === callback) return false;
      throw new TravelRuleError(
        'state',
        `the transfer is ${row.status}: the other VASP was told it is cancelled, on another callback`,
      );
    }
    await updateCounterparty(tx, row.id, { callback });
    await enqueueMessage(tx, {
      transactionId: row.id,
      kind: 'trp_confirmation',
      params: { canceled: CANCELLATION_SENT },
      maxAttempts: deps.maxAttempts,
    });
    return true;
  });
  if (queued)
    log.info(
      { travelrule_id: row.id },
      'travel rule approval of a transfer we will not make: the cancellation goes to its callback',
    );
}

export async function receiveResolution(
  deps: TravelRuleDeps,
  token: string,
  resolution: Resolution,
  requestId: string,
  peer: TrpPeer,
): Promise<void> {
  const t = await findByCallbackToken(deps.sql, deps.keyring, token);
  if (t?.direction !== 'outgoing') throw new TravelRuleError('not_found', 'unknown callback URL');
  await checkTransferSender(deps.sql, deps.config, t.counterparty_vasp_id, peer);
  requestIdOrThrow(t, requestId);
  await applyResolution(deps, t, resolution);
}
