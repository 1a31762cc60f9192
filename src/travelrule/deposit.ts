import { checkSender, checkTransferSender, identifySender, type TrpPeer } from './peer.js';
import { log } from '../log.js';
import { TravelRuleError } from './errors.js';
import { findTravelAddress } from './travel-addresses.js';
import type { NormalisedReceiveTx } from './ivms101/index.js';
import { hashReason } from './ivms101/rules.js';
import { createTransaction, transition, type Actor } from './lifecycle.js';
import { enqueueMessage } from './sending/queue.js';
import { screenParties } from './screening.js';
import {
  findByCallbackToken,
  findByRef,
  recordScreening,
  recordThreshold,
  updateCounterparty,
} from './store.js';
import { thresholdNotes } from './threshold.js';
import type { Confirmation, InboundInquiry, Resolution } from './trp/messages.js';
import { TRP_VERSION } from './trp/messages.js';
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
  markOtherVaspRejected,
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
  peer: TrpPeer,
): Promise<Resolution> {
  // The inquiry URL of a directory VASP, or a Travel Address we issued for one of our customers.
  let vasp = await findVaspByInboundToken(deps.sql, token);
  const customer = vasp ? undefined : await findTravelAddress(deps.sql, deps.keyring, token);
  if (!vasp && !customer) throw new TravelRuleError('not_found', 'unknown inquiry URL');
  // The URL's VASP must be the sender; on a Travel Address, the certificate says who sent it.
  if (vasp) checkSender(deps.config, vasp, peer);
  else vasp = await identifySender(deps.sql, deps.config, peer);
  callbackOrThrow(deps, inquiry.callback, 'callback');
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
  const existing = await findByRef(deps.sql, apiKeyId, ref);
  if (existing) {
    if (existing.counterparty_vasp_id === counterparty) return { version: TRP_VERSION };
    throw new TravelRuleError('state', 'request-identifier already used');
  }
  const parties: SealedParties = { originator: inquiry.originator, beneficiary };
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
      actor: { type: 'counterparty', id: counterparty ?? 'travel-address' },
      ivms101: parties,
      counterpartyProtocol: 'trp',
      counterpartyRef: requestId,
    });
    await updateCounterparty(tx, created.id, {
      vaspId: counterparty,
      callback: inquiry.callback,
      ...(customer ? { beneficiaryAddress: customer.address } : {}),
    });
    await screenAndPend(
      deps,
      tx,
      created.id,
      { network, asset: inquiry.asset, amount: inquiry.amount, ...parties },
      screening,
    );
  });
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
  peer: TrpPeer,
): Promise<void> {
  const t = await findByCallbackToken(deps.sql, deps.keyring, token);
  if (t?.direction !== 'incoming') throw new TravelRuleError('not_found', 'unknown callback URL');
  await checkTransferSender(deps.sql, deps.config, t.counterparty_vasp_id, peer);
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
    deps.sql.begin((tx) => markOtherVaspRejected(tx, t, { from: t.status, actor, reason })),
  );
}
