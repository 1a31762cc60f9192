import { createHash } from 'node:crypto';
import { checkSender, checkTransferSender, identifySender, type TrpPeer } from './peer.js';
import { log } from '../log.js';
import { TravelRuleError } from './errors.js';
import { findTravelAddress } from './travel-addresses.js';
import type { NormalisedReceiveTx } from './ivms101/index.js';
import { canonicalHash, hashReason } from './ivms101/rules.js';
import {
  createTransaction,
  DuplicateTransactionRefError,
  transition,
  type Actor,
} from './lifecycle.js';
import { enqueueMessage } from './sending/queue.js';
import { screenParties } from './screening.js';
import {
  findByCallbackToken,
  findByRef,
  findTrpInquiry,
  readPayload,
  recordScreening,
  recordThreshold,
  updateCounterparty,
  type TravelRuleTransaction,
} from './store.js';
import { DecryptionError } from './crypto.js';
import { thresholdNotes } from './threshold.js';
import type { Confirmation, InboundInquiry, Resolution } from './trp/messages.js';
import { decimalOf, TRP_VERSION } from './trp/messages.js';
import { findVaspByInboundToken } from './vasps.js';
import { enqueueTravelRuleWebhook, type SealedParties } from './webhooks.js';

import {
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
  recordLateWord,
} from './flow.js';

/**
 * Deposits: another VASP's customer sends to ours. Over the protocol an inquiry arrives
 * (receiveInquiry), the caller names the deposit address once an operator accepted it
 * (send_address), and the originator's confirmation closes it; without a protocol the caller
 * records a settled deposit (receive_tx_without_protocol).
 */

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
  const stored = addressOrThrow(t.network, address, 'address');
  await moving(() =>
    onFreshRowIfMoved(deps.sql, t, async (row) => {
      // The same address again (a retry after a lost answer, even one racing the first) is done.
      if (
        (row.status === 'WAITING_FOR_CONFIRMATION' || row.status === 'TRANSACTION_CONFIRMED') &&
        row.beneficiary_address === stored
      )
        return;
      if (row.status !== 'WAITING_ADDRESS_DATA')
        throw new TravelRuleError(
          'state',
          `the transaction is ${row.status}; send_address is taken after an operator accepted it (WAITING_ADDRESS_DATA)`,
        );
      await deps.sql.begin(async (tx) => {
        await transition(tx, {
          id: row.id,
          from: 'WAITING_ADDRESS_DATA',
          to: 'WAITING_FOR_CONFIRMATION',
          actor: { type: 'api_key', id: apiKeyId },
        });
        await updateCounterparty(tx, row.id, { beneficiaryAddress: stored });
        await enqueueMessage(tx, {
          transactionId: row.id,
          kind: 'trp_resolution',
          params: { approved: true },
          maxAttempts: deps.maxAttempts,
        });
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

/** When each sender over its inquiry rate was last said in the log (once a minute each). */
const overRateSaid = new Map<string, number>();

/**
 * A sender over its inquiry rate, said as a warning once a minute (each refusal is also an info
 * line): an operator sees which counterparty floods, by its directory id (nothing personal).
 */
function overRate(sender: string, vaspUid: string | undefined, perMinute: number): void {
  const now = Date.now();
  if ((overRateSaid.get(sender) ?? 0) > now - 60_000) return;
  overRateSaid.set(sender, now);
  if (overRateSaid.size > 10_000) overRateSaid.delete(overRateSaid.keys().next().value!);
  log.warn(
    { counterparty: vaspUid ?? 'outside the directory', per_minute: perMinute },
    'a counterparty sends more new TRP inquiries than its rate: they are refused with 429 until it slows down (TOLLGATE_TRP_INQUIRIES_PER_MINUTE)',
  );
}

/** JSON with object keys sorted: two parties compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}

/**
 * What of an inquiry differs from the transfer stored earlier under its request-identifier, as
 * TRP paths (never values): the stored columns (amount, asset, callback), then the sealed parties
 * (the beneficiary's account, the persons). Parties that cannot be opened (their data key gone)
 * are not compared.
 */
async function differences(
  deps: TravelRuleDeps,
  earlier: TravelRuleTransaction,
  inquiry: InboundInquiry,
  network: string,
  parties: SealedParties,
): Promise<string[]> {
  const changed: string[] = [];
  if (decimalOf(earlier.amount) !== decimalOf(inquiry.amount)) changed.push('amount');
  if (
    earlier.asset.toUpperCase() !== inquiry.asset.toUpperCase() ||
    earlier.network !== network ||
    earlier.decimals !== inquiry.decimals
  )
    changed.push('asset');
  if (earlier.counterparty_callback !== inquiry.callback) changed.push('callback');
  let stored: Partial<SealedParties> | undefined;
  try {
    stored = (await readPayload(deps.sql, deps.keyring, earlier.id)) as Partial<SealedParties>;
  } catch (err) {
    if (!(err instanceof DecryptionError)) throw err;
  }
  if (stored) {
    const same = (a: unknown, b: unknown) => canonical(a ?? null) === canonical(b ?? null);
    if (!same(stored.beneficiary?.accountNumber, parties.beneficiary.accountNumber))
      changed.push('IVMS101.beneficiary.accountNumber');
    if (!same(stored.beneficiary?.persons, parties.beneficiary.persons))
      changed.push('IVMS101.beneficiary.beneficiaryPersons');
    if (!same(stored.originator, parties.originator)) changed.push('IVMS101.originator');
  }
  return changed;
}

/**
 * An inbound transfer inquiry from a directory VASP (known by the token of its inbound URL):
 * stored, screened, PENDING for the operators, answered "deferred" ({version}); the resolution
 * follows to its callback once an operator and the caller have acted. A repeated inquiry (same
 * request-identifier from the same VASP, the same content: a retry) is answered the same and
 * stored once; the same request-identifier with other content (another amount, asset, callback,
 * beneficiary account or parties) is refused (409), naming what differs.
 */
export async function receiveInquiry(
  deps: TravelRuleDeps,
  token: string,
  inquiry: InboundInquiry,
  requestId: string,
  peer: TrpPeer,
): Promise<Resolution> {
  // The inquiry URL of a directory VASP, or a Travel Address we issued for one of our customers.
  let vasp = await findVaspByInboundToken(deps.sql, token);
  const customer = vasp ? undefined : await findTravelAddress(deps.sql, deps.keyring, token);
  if (!vasp && !customer) throw new TravelRuleError('not_found', 'unknown inquiry URL');
  // The URL's VASP must be the sender; on a Travel Address, the certificate says who sent it.
  if (vasp) checkSender(deps.config, vasp, peer);
  else vasp = await identifySender(deps.sql, deps.config, peer);
  callbackOrThrow(deps, inquiry.callback, 'callback', vasp?.trp_tls_fingerprints);
  const network = inquiry.network_resolved;
  let beneficiary = inquiry.beneficiary;
  if (customer) {
    if (network !== customer.network)
      throw new TravelRuleError(
        'invalid',
        `asset: this Travel Address is for ${customer.network}, not ${network}`,
      );
    // The Travel Address names the beneficiary's account; an inquiry naming another is refused.
    if (beneficiary.accountNumber.some((a) => a !== customer.address))
      throw new TravelRuleError(
        'invalid',
        'IVMS101.beneficiary.accountNumber: not the account of this Travel Address',
      );
    beneficiary = { ...beneficiary, accountNumber: [customer.address] };
  }
  const apiKeyId = customer?.api_key_id ?? (await incomingKey(deps));
  if (!apiKeyId) throw new TravelRuleError('unavailable', 'this VASP cannot take transfers yet');
  const counterparty = vasp?.uid ?? null;
  const ref = `trp-${requestId}`;
  const parties: SealedParties = { originator: inquiry.originator, beneficiary };
  // A repeat (the same inquiry again) is answered as the first was; one of another sender, or
  // with other content, is refused: the first transfer stands as it was taken.
  const repeat = async (earlier: TravelRuleTransaction | undefined): Promise<Resolution> => {
    if (
      earlier?.direction !== 'incoming' ||
      earlier.counterparty_protocol !== 'trp' ||
      earlier.counterparty_vasp_id !== counterparty
    )
      throw new TravelRuleError('state', 'request-identifier already used');
    const changed = await differences(deps, earlier, inquiry, network, parties);
    if (changed.length > 0)
      throw new TravelRuleError(
        'state',
        `request-identifier already used by an inquiry with another ${changed.join(', ')}: a retry repeats the inquiry unchanged, a new transfer needs a new request-identifier`,
      );
    return { version: TRP_VERSION };
  };
  const earlier =
    (await findByRef(deps.sql, apiKeyId, ref)) ?? (await findTrpInquiry(deps.sql, ref));
  if (earlier) return repeat(earlier);
  // A repeat costs nothing; a new transfer counts against its sender's rate.
  const sender = vasp
    ? `vasp:${vasp.uid}`
    : `url:${createHash('sha256').update(token).digest('base64url')}`;
  const turn = deps.inquiryBuckets?.take(sender);
  if (turn && !turn.ok) {
    overRate(sender, vasp?.uid, deps.config.trp_inquiries_per_minute);
    throw new TravelRuleError(
      'too_many',
      `more than ${deps.config.trp_inquiries_per_minute} new inquiries a minute from this sender: retry in ${turn.retryAfterS} s`,
      turn.retryAfterS,
    );
  }
  const screening = await screenParties(deps.sql, deps.aml, deps.indexedNetworks, {
    network,
    ...parties,
  });
  // The same inquiry may arrive twice at once: the sender's retry of a first attempt it gave up
  // on (a timeout) while that first was still being taken here. The one stored second finds the
  // reference taken and is a repeat.
  const stored = await deps.sql
    .begin(async (tx) => {
      const created = await createTransaction(tx, deps.keyring, {
        apiKeyId,
        direction: 'incoming',
        transactionRef: ref,
        asset: inquiry.asset,
        network,
        amount: inquiry.amount,
        decimals: inquiry.decimals,
        status: 'CREATED',
        actor: { type: 'counterparty', id: counterparty ?? 'travel-address' },
        ivms101: parties,
        counterpartyProtocol: 'trp',
        counterpartyRef: requestId,
      });
      await updateCounterparty(tx, created.id, {
        vaspId: counterparty,
        callback: inquiry.callback,
        statedName: inquiry.originatingVaspName,
        statedLei: inquiry.originatingVaspLei,
        transliteration: inquiry.transliterationMethods,
        ...(customer ? { beneficiaryAddress: customer.address } : {}),
      });
      await screenAndPend(
        deps,
        tx,
        created.id,
        { network, asset: inquiry.asset, amount: inquiry.amount, ...parties },
        screening,
      );
      return true;
    })
    .catch((err) => {
      if (err instanceof DuplicateTransactionRefError) return false;
      throw err;
    });
  if (!stored) return repeat(await findByRef(deps.sql, apiKeyId, ref));
  log.info(
    { vasp_uid: counterparty ?? undefined, travel_address: customer?.id, request_id: requestId },
    'travel rule inquiry received',
  );
  return { version: TRP_VERSION };
}

/** The originator VASP's confirmation of a deposit we approved: the txid, or a cancellation. */
export async function receiveConfirmation(
  deps: TravelRuleDeps,
  token: string,
  confirmation: Confirmation,
  requestId: string,
  peer: TrpPeer,
): Promise<void> {
  const t = await findByCallbackToken(deps.sql, deps.keyring, token);
  if (t?.direction !== 'incoming') throw new TravelRuleError('not_found', 'unknown callback URL');
  await checkTransferSender(deps.sql, deps.config, t.counterparty_vasp_id, peer);
  requestIdOrThrow(t, requestId);
  const actor: Actor = { type: 'counterparty', id: t.counterparty_vasp_id ?? 'unknown' };
  if ('txid' in confirmation) {
    // One letter case: a retry in another is the same hash, and the webhook has the usual form.
    const txid = canonicalHash(t.network, confirmation.txid);
    const reason = t.network ? hashReason(t.network, txid) : null;
    return moving(() =>
      onFreshRowIfMoved(deps.sql, t, async (row) => {
        if (row.status === 'TRANSACTION_CONFIRMED' && row.tx_hash === txid) return;
        if (reason) throw new TravelRuleError('invalid', `txid: ${reason} on ${row.network}`);
        if (row.status === 'REJECTED' || row.status === 'OTHER_VASP_REJECTED')
          return takeLateTxHash(deps, row, actor, txid);
        await deps.sql.begin(async (tx) => {
          await transition(tx, {
            id: row.id,
            from: 'WAITING_FOR_CONFIRMATION',
            to: 'TRANSACTION_CONFIRMED',
            actor,
            txHash: txid,
          });
          await enqueueTravelRuleWebhook(tx, {
            apiKeyId: row.api_key_id,
            transactionId: row.id,
            status: 'TRANSACTION_CONFIRMED',
            txid,
          });
        });
      }),
    );
  }
  const reason = confirmation.canceled.slice(0, MAX_REASON_CHARS);
  return moving(() =>
    onFreshRowIfMoved(deps.sql, t, async (row) => {
      if (row.status === 'OTHER_VASP_REJECTED') return;
      if (row.status === 'REJECTED') return takeLateCancellation(deps, row, actor, reason);
      await deps.sql.begin((tx) =>
        markOtherVaspRejected(tx, row, { from: row.status, actor, reason }),
      );
    }),
  );
}

/**
 * The originator's cancellation of a deposit we rejected or cancelled: both sides agree no funds
 * move, so it is taken (204), not refused as a move the lifecycle does not have. The transfer
 * stays REJECTED; its history records the cancellation (LATE_WORD.cancellation, with its
 * reason), which becomes `counterparty_reason`. Another cancellation after it changes nothing,
 * as after a cancellation that moved the transfer.
 */
async function takeLateCancellation(
  deps: TravelRuleDeps,
  row: TravelRuleTransaction,
  actor: Actor,
  reason: string,
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const earlier = await recordLateWord(tx, row, {
      trigger: LATE_WORD.cancellation,
      actor,
      reason,
    });
    if (!earlier) await updateCounterparty(tx, row.id, { reason });
  });
}

/**
 * The originator's transaction hash for a deposit that had ended here (REJECTED: we rejected or
 * cancelled it; OTHER_VASP_REJECTED: the originator cancelled it): it says it sent the funds all
 * the same, to the address it was given, and they may be arriving. Refusing it (409) would lose
 * the one pointer to them, so it is taken (204): the transfer keeps its status (it is not
 * confirmed: no TRANSACTION_CONFIRMED webhook), the hash is kept as its `tx_hash`, and its history
 * records the originator's word (LATE_WORD.txHash), for the compliance team, who see it on the
 * transaction's page and in tx_status, and are told in a warning log line. The same hash again
 * changes nothing; another one is refused.
 */
async function takeLateTxHash(
  deps: TravelRuleDeps,
  row: TravelRuleTransaction,
  actor: Actor,
  txid: string,
): Promise<void> {
  const taken = await deps.sql.begin(async (tx) => {
    const earlier = await recordLateWord(tx, row, { trigger: LATE_WORD.txHash, actor });
    if (earlier) {
      if (earlier.txHash === txid) return false;
      throw new TravelRuleError(
        'state',
        `the transfer is ${row.status}, and another transaction hash was given for it already: a different one is refused`,
      );
    }
    await tx`update travelrule_transactions set tx_hash = ${txid}, updated_at = now() where id = ${row.id}`;
    return true;
  });
  if (taken)
    log.warn(
      { travelrule_id: row.id, status: row.status },
      'travel rule deposit: the originator VASP gave a transaction hash for a transfer that had ended here; the funds may arrive, the hash is on the transaction for the compliance team',
    );
}
