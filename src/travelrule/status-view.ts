import { networkInfo } from '../config/networks.js';
import type { Db, Sql } from '../db/index.js';
import { log } from '../log.js';
import { DecryptionError, type Keyring } from './crypto.js';
import { TravelRuleError } from './errors.js';
import type { NormalisedParty } from './ivms101/index.js';
import { listMessages, type MessageKind } from './sending/queue.js';
import type { ActorType, Direction, Status } from './status.js';
import { findByRef, listHistory, readPayload, type TravelRuleTransaction } from './store.js';

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
  /** A deposit's: what the originator VASP's inquiry said of itself (name, LEI), as stated. */
  counterparty_stated_name: string | null;
  counterparty_stated_lei: string | null;
  /** A deposit's: how the originator VASP's inquiry says its names were transliterated (codes). */
  counterparty_transliteration: string[] | null;
  /** See BeneficiaryAddressView. */
  beneficiary_address: string | null;
  beneficiary_address_differs: boolean | null;
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

/**
 * Where the customer's payment goes, as tx_status and the OTHER_VASP_APPROVED webhook tell the
 * backend.
 *
 * - beneficiary_address: for a withdrawal, the address the beneficiary VASP approved (TRP
 *   `approved.address`, or the one an operator recorded with the answer of a VASP reached by
 *   e-mail): the one to pay to. Null until approved, and when an e-mailed VASP's approval was
 *   recorded without one. It never changes once approved (a different approval is refused).
 *   For a deposit over TRP, our customer's deposit address the originator VASP was told to pay
 *   to: the one given with send_address, or the account of the Travel Address the inquiry came
 *   on; null before that, and for a deposit without the protocol.
 * - beneficiary_address_differs: for a withdrawal with an approved address, true when that
 *   address is none of the beneficiary accountNumber given to create_tx (compared without case
 *   on EVM networks, exactly on others), false when it is one of them. Legitimate (the Travel
 *   Address flow gives an address the originator did not know), but a backend that would pay to
 *   the account it named must pay to beneficiary_address instead. Null when there is nothing to
 *   compare: no approved address, or a deposit.
 */
export interface BeneficiaryAddressView {
  beneficiary_address: string | null;
  beneficiary_address_differs: boolean | null;
}

/** Whether two addresses of `network` are the same account: without case on EVM networks. */
export function sameAddress(network: string | null, a: string, b: string): boolean {
  const evm = network !== null && networkInfo(network)?.family === 'evm';
  return evm ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * BeneficiaryAddressView of a transaction. The accounts create_tx named are in the sealed
 * payload: opened here (a DecryptionError when it cannot be) and never logged or returned.
 */
export async function beneficiaryAddressView(
  sql: Db,
  keyring: Keyring,
  t: Pick<TravelRuleTransaction, 'id' | 'direction' | 'network' | 'beneficiary_address'>,
): Promise<BeneficiaryAddressView> {
  const address = t.beneficiary_address;
  if (t.direction !== 'outgoing' || address === null)
    return { beneficiary_address: address, beneficiary_address_differs: null };
  const payload = (await readPayload(sql, keyring, t.id)) as
    | { beneficiary?: NormalisedParty }
    | undefined;
  const named = payload?.beneficiary?.accountNumber ?? [];
  return {
    beneficiary_address: address,
    beneficiary_address_differs:
      named.length === 0 ? null : !named.some((a) => sameAddress(t.network, a, address)),
  };
}

export async function transactionStatus(
  sql: Sql,
  keyring: Keyring,
  apiKeyId: string,
  transactionRef: string,
): Promise<TransactionStatusView> {
  const t = await findByRef(sql, apiKeyId, transactionRef);
  if (!t)
    throw new TravelRuleError(
      'not_found',
      'transaction_ref: this API key has no travel rule transaction with this reference',
    );
  const [history, messages, payee] = await Promise.all([
    listHistory(sql, t.id),
    listMessages(sql, t.id),
    // A row sealed with a data key not configured (README, "Rotating the data key") still has
    // its status: the comparison is unknown, null, and the operator's log says why.
    beneficiaryAddressView(sql, keyring, t).catch((err: unknown): BeneficiaryAddressView => {
      if (!(err instanceof DecryptionError)) throw err;
      log.warn(
        { travelrule_id: t.id, err: err.message },
        'tx_status: the payload could not be opened; beneficiary_address_differs is null',
      );
      return { beneficiary_address: t.beneficiary_address, beneficiary_address_differs: null };
    }),
  ]);
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
    counterparty_stated_name: t.counterparty_stated_name,
    counterparty_stated_lei: t.counterparty_stated_lei,
    counterparty_transliteration: t.counterparty_transliteration,
    ...payee,
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
