import type { Sql, TransactionSql } from '../db/index.js';
import type { Keyring } from './crypto.js';
import type { NormalisedParty } from './ivms101/index.js';
import { beneficiaryAddressView } from './status-view.js';
import { getTransaction, readPayload } from './store.js';
import { personalDataUrlRefusal } from '../urls.js';
import { type Built, buildFailure, type EventKind } from '../webhooks/deliver.js';
import { enqueueEvents } from '../webhooks/enqueue.js';
import { releaseTravelRuleEvents } from '../webhooks/holds.js';

/**
 * Travel rule webhooks to the caller's backend (the spec's Events: OTHER_VASP_APPROVED,
 * OTHER_VASP_REJECTED, WAITING_ADDRESS_DATA, TRANSACTION_CONFIRMED). Each is a webhook_events
 * row of kind 'travelrule' delivered by the same job as stream webhooks: Standard Webhooks
 * signature with the key's secret, the same webhook-id on every retry, every attempt recorded.
 *
 * Its body may hold persons (WAITING_ADDRESS_DATA), so it is not frozen in clear like a stream
 * body: it is built at each attempt from the event's status and txid and the sealed payload,
 * which do not change, so every attempt sends the same bytes.
 */

export type TravelRuleWebhookStatus =
  | 'OTHER_VASP_APPROVED'
  | 'OTHER_VASP_REJECTED'
  | 'WAITING_ADDRESS_DATA'
  | 'TRANSACTION_CONFIRMED';

/** Enqueues one travel rule webhook, in the caller's database transaction. */
export async function enqueueTravelRuleWebhook(
  tx: TransactionSql,
  e: {
    apiKeyId: string;
    transactionId: string;
    status: TravelRuleWebhookStatus;
    txid?: string | null;
  },
): Promise<void> {
  // A travel rule event has no chain columns. It is confirmed and its confirmation done from the
  // start, so that no confirmation or reorg step ever looks at it.
  await enqueueEvents(
    tx,
    [
      'kind',
      'api_key_id',
      'tx_hash',
      'confirmed',
      'confirmation_done',
      'travelrule_id',
      'travelrule_status',
    ],
    tx`values ('travelrule', ${e.apiKeyId}::bigint, ${e.txid ?? null}::text, true, true, ${e.transactionId}::uuid, ${e.status}::text)`,
  );
}

/**
 * Travel rule webhooks as the outbox delivers them: a body is never stored (it may hold persons)
 * and is rebuilt at each attempt; a key that registered no webhook uses the configured one, and
 * with neither the event waits for one.
 */
export function travelRuleEvents(deps: {
  sql: Sql;
  keyring: Keyring | undefined;
  /** config travel_rule.webhook_url */
  defaultUrl: string | undefined;
  /** config travel_rule.allow_http_loopback */
  allowHttpLoopback: boolean;
}): EventKind {
  return {
    freeze: false,
    fallbackUrl: deps.defaultUrl,
    awaitReceiver:
      'no travel rule webhook registered for the key (POST /v2/travelrule/webhook) and no travel_rule.webhook_url',
    build: (events) =>
      Promise.all(
        events.map(async (ev): Promise<Built> => {
          if (!deps.keyring) return { retry: 'this worker has no data keyring' };
          // Registered before https was required: never sent in clear, and the event says why.
          const url = ev.url ?? deps.defaultUrl;
          const refusal = url && personalDataUrlRefusal(new URL(url), deps.allowHttpLoopback);
          if (refusal)
            return { cancel: `travel rule webhook URL ${refusal}; register an https one` };
          try {
            const body = await buildTravelRuleBody(deps.sql, deps.keyring, ev.id);
            return body === undefined ? { cancel: 'travel rule transaction not found' } : { body };
          } catch (err) {
            return buildFailure(err);
          }
        }),
      ),
  };
}

/** The payload sealed on a travel rule row: the normalised originator and beneficiary. */
export interface SealedParties {
  originator: NormalisedParty;
  beneficiary: NormalisedParty;
}

/**
 * The webhook body: always transaction_ref and status (the spec); OTHER_VASP_APPROVED adds
 * beneficiary_address (the address the beneficiary VASP approved: the one to pay to) and
 * beneficiary_address_differs (whether it is none of the accounts create_tx named), as tx_status
 * shows them (status-view.ts, beneficiaryAddressView); WAITING_ADDRESS_DATA adds the
 * beneficiary's persons and accountNumber (the caller finds the customer's deposit address from
 * them); TRANSACTION_CONFIRMED adds txid. Undefined when the transaction is gone.
 *
 * The approved address is read from the transaction, not from the event: it is stored in the
 * database transaction that enqueues OTHER_VASP_APPROVED (withdrawal.ts applyResolution,
 * review.ts recordAnswerByOperator) and never changes after (a different approval is refused),
 * so every attempt still sends the same bytes. A payload that cannot be opened fails the attempt
 * (retried) rather than sending a flag that a later attempt would contradict.
 */
export async function buildTravelRuleBody(
  sql: Sql,
  keyring: Keyring,
  eventId: string,
): Promise<string | undefined> {
  const [ev] = await sql<
    {
      travelrule_id: string;
      travelrule_status: TravelRuleWebhookStatus;
      tx_hash: string;
      transaction_ref: string;
    }[]
  >`
    select e.travelrule_id, e.travelrule_status, e.tx_hash, t.transaction_ref
    from webhook_events e join travelrule_transactions t on t.id = e.travelrule_id
    where e.id = ${eventId}`;
  if (!ev) return undefined;
  const body: Record<string, unknown> = {
    transaction_ref: ev.transaction_ref,
    status: ev.travelrule_status,
  };
  if (ev.travelrule_status === 'OTHER_VASP_APPROVED') {
    const t = await getTransaction(sql, ev.travelrule_id);
    if (!t) return undefined;
    Object.assign(body, await beneficiaryAddressView(sql, keyring, t));
  }
  if (ev.travelrule_status === 'WAITING_ADDRESS_DATA') {
    const payload = (await readPayload(sql, keyring, ev.travelrule_id)) as SealedParties;
    body.persons = payload.beneficiary.persons;
    body.accountNumber = payload.beneficiary.accountNumber;
  }
  if (ev.travelrule_status === 'TRANSACTION_CONFIRMED') body.txid = ev.tx_hash;
  return JSON.stringify(body);
}

/**
 * The travel rule webhook URL of a key: its own (POST /v2/travelrule/webhook), else the configured
 * default. A change lets go the key's travel rule events held for the old one (a disabled
 * endpoint): to the new one, or held again.
 */
export async function setTravelRuleWebhook(sql: Sql, apiKeyId: string, url: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into travelrule_webhooks (api_key_id, url) values (${apiKeyId}, ${url})
      on conflict (api_key_id) do update set url = excluded.url, updated_at = now()`;
    await releaseTravelRuleEvents(tx, apiKeyId);
  });
}

export async function getTravelRuleWebhook(
  sql: Sql,
  apiKeyId: string,
): Promise<string | undefined> {
  const [row] = await sql<
    { url: string }[]
  >`select url from travelrule_webhooks where api_key_id = ${apiKeyId}`;
  return row?.url;
}

export async function deleteTravelRuleWebhook(sql: Sql, apiKeyId: string): Promise<boolean> {
  return (await sql.begin(async (tx) => {
    const rows =
      await tx`delete from travelrule_webhooks where api_key_id = ${apiKeyId} returning api_key_id`;
    if (rows.length > 0) await releaseTravelRuleEvents(tx, apiKeyId);
    return rows.length > 0;
  })) as boolean;
}
