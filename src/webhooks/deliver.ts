import type { PublicClient } from 'viem';
import type { Sql } from '../db/index.js';
import { describeError, PermanentError } from '../errors.js';
import { stringifyWithBigInts } from '../json.js';
import { networkInfo } from '../config/networks.js';
import {
  buildEvmPayload,
  evmTxKey,
  loadEvmTransactions,
  type EvmTxForPayload,
} from './evm-payload.js';
import { buildUtxoPayload } from './utxo-payload.js';
import type { ClaimedEvent } from './outbox.js';
import type { AllowList } from '../net/ssrf.js';
import type { Keyring } from '../travelrule/crypto.js';
import { buildTravelRuleBody } from '../travelrule/webhooks.js';

export interface DeliveryDeps {
  sql: Sql;
  /** viem clients by network, for token metadata. */
  evmClients: ReadonlyMap<string, PublicClient>;
  timeoutMs: number;
  allow: AllowList;
  /** Decrypts travel rule payloads: their webhook bodies are built from them at each attempt. */
  keyring?: Keyring;
  /** Travel rule webhook of keys that registered none (config travel_rule.webhook_url). */
  travelRuleWebhookUrl?: string;
}

/** What to do with a claimed event: send this body to this URL, cancel it, or try again later. */
export type Prepared =
  | { send: { url: string; body: string } }
  | { cancel: string }
  | { retry: string };

/**
 * The body of a claimed event and where it goes. A stream body is built from the database (and,
 * for EVM tokens, the node's token metadata) at the first attempt; the dispatcher freezes it so
 * every attempt sends the same bytes. A live AML body was frozen when the event was written. A
 * travel rule body may hold persons, so it is never stored in clear: it is rebuilt at each
 * attempt from the sealed payload, and comes out the same each time.
 */
export async function prepareDelivery(
  deps: DeliveryDeps,
  ev: ClaimedEvent,
  evmTxs?: ReadonlyMap<string, EvmTxForPayload>,
): Promise<Prepared> {
  let url = ev.url;
  if (ev.kind === 'travelrule') {
    url ??= deps.travelRuleWebhookUrl ?? null;
    // No travel rule webhook registered yet: the event waits (with backoff) rather than being lost.
    if (!url && !ev.key_revoked)
      return {
        retry:
          'no travel rule webhook registered for the key (POST /v2/travelrule/webhook) and no travel_rule.webhook_url',
      };
  }
  if (ev.key_revoked || !url) return { cancel: 'subscription or key removed' };

  if (ev.kind === 'travelrule') {
    if (!deps.keyring) return { retry: 'this worker has no data keyring' };
    const built = await buildTravelRuleBody(deps.sql, deps.keyring, ev.id);
    return built === undefined
      ? { cancel: 'travel rule transaction not found' }
      : { send: { url, body: built } };
  }
  if (ev.body !== null) return { send: { url, body: ev.body } };

  // Bitcoin-family bodies come from the database alone; EVM ones also read token metadata.
  const utxo = networkInfo(ev.network)?.family === 'utxo';
  const client = deps.evmClients.get(ev.network);
  if (!utxo && !client) return { retry: `no RPC client for ${ev.network} in this worker` };
  if (!utxo && ev.chain_id === null) return { retry: `no cursor for ${ev.network} yet` };
  try {
    const evmTx = utxo
      ? undefined
      : (evmTxs ?? (await loadEvmTransactions(deps.sql, [ev]))).get(evmTxKey(ev));
    const payload = utxo
      ? await buildUtxoPayload(deps.sql, ev)
      : await buildEvmPayload(deps.sql, client!, ev, Number(ev.chain_id), evmTx);
    return { send: { url, body: stringifyWithBigInts(payload) } };
  } catch (err) {
    if (err instanceof PermanentError) return { cancel: err.message };
    return { retry: describeError(err) };
  }
}

/**
 * prepareDelivery for a batch: the EVM transactions of the stream bodies still to build are read
 * in one round trip first. Never throws: an event that cannot be prepared now is to be retried.
 */
export async function prepareDeliveries(
  deps: DeliveryDeps,
  events: readonly ClaimedEvent[],
): Promise<Prepared[]> {
  const building = new Set(
    events.filter(
      (ev) =>
        ev.kind === 'stream' &&
        ev.body === null &&
        !ev.key_revoked &&
        ev.url &&
        networkInfo(ev.network)?.family !== 'utxo',
    ),
  );
  let evmTxs: Map<string, EvmTxForPayload> | undefined;
  let loadError: string | undefined;
  try {
    evmTxs = await loadEvmTransactions(deps.sql, [...building]);
  } catch (err) {
    loadError = describeError(err);
  }
  return Promise.all(
    events.map(async (ev): Promise<Prepared> => {
      if (loadError !== undefined && building.has(ev)) return { retry: loadError };
      try {
        return await prepareDelivery(deps, ev, evmTxs);
      } catch (err) {
        return { retry: describeError(err) };
      }
    }),
  );
}

/**
 * The bytes sent for an event: its body with the subscription's `sequence` as the first field
 * (stream and live AML events; a travel rule event has none). The sequence is the event's, so
 * every attempt sends the same bytes; a retraction has its own, higher one.
 */
export function withSequence(body: string, sequence: string | null): string {
  if (sequence === null) return body;
  return body.trimEnd() === '{}'
    ? `{"sequence":${sequence}}`
    : `{"sequence":${sequence},${body.slice(1)}`;
}
