import type { Sql } from '../db/index.js';
import type { EvmClientFor } from '../chains/evm/client.js';
import { PermanentError } from '../errors.js';
import { stringifyWithBigInts } from '../json.js';
import { networkInfo } from '../config/networks.js';
import { type Built, buildFailure, type EventKind } from '../webhooks/deliver.js';
import type { ClaimedEvent } from '../webhooks/outbox.js';
import {
  buildEvmPayload,
  evmTxKey,
  loadEvmTransactions,
  type EvmTxForPayload,
} from './evm-payload.js';
import { buildUtxoPayload } from './utxo-payload.js';

export interface StreamBodyDeps {
  sql: Sql;
  /** viem clients by network, for token metadata; with a signal, one whose calls it gives up. */
  evmClientFor: EvmClientFor;
}

/**
 * Stream webhooks as the outbox delivers them: the body is built from the database (and, for
 * EVM tokens, the node's token metadata) at the first attempt and frozen, so every attempt sends
 * the same bytes. The EVM transactions of a batch are read in one round trip.
 */
export function streamEvents(deps: StreamBodyDeps): EventKind {
  return { freeze: true, build: (events, signal) => buildStreamBodies(deps, events, signal) };
}

/** A claimed stream event: it always has its chain columns. */
type StreamEvent = ClaimedEvent & {
  network: string;
  address: string;
  tx_hash: string;
  block_hash: string;
};

async function buildStreamBodies(
  deps: StreamBodyDeps,
  claimed: readonly ClaimedEvent[],
  signal: AbortSignal | undefined,
): Promise<Built[]> {
  const events = claimed as readonly StreamEvent[];
  const evm = new Set(events.filter((ev) => networkInfo(ev.network)?.family !== 'utxo'));
  let evmTxs: Map<string, EvmTxForPayload>;
  try {
    evmTxs = await loadEvmTransactions(deps.sql, [...evm]);
  } catch (err) {
    const failed = buildFailure(err);
    return Promise.all(
      events.map((ev) => (evm.has(ev) ? failed : buildOne(deps, ev, new Map(), signal))),
    );
  }
  return Promise.all(events.map((ev) => buildOne(deps, ev, evmTxs, signal)));
}

async function buildOne(
  deps: StreamBodyDeps,
  ev: StreamEvent,
  evmTxs: ReadonlyMap<string, EvmTxForPayload>,
  signal: AbortSignal | undefined,
): Promise<Built> {
  // Bitcoin-family bodies come from the database alone; EVM ones also read token metadata.
  const utxo = networkInfo(ev.network)?.family === 'utxo';
  const client = utxo ? undefined : deps.evmClientFor(ev.network, signal);
  if (!utxo && !client) return { retry: `no RPC client for ${ev.network} in this worker` };
  if (!utxo && ev.chain_id === null) return { retry: `no cursor for ${ev.network} yet` };
  try {
    const payload = utxo
      ? await buildUtxoPayload(deps.sql, ev)
      : await buildEvmPayload(deps.sql, client!, ev, Number(ev.chain_id), evmTxs.get(evmTxKey(ev)));
    return { body: stringifyWithBigInts(payload) };
  } catch (err) {
    if (err instanceof PermanentError) return { cancel: err.message };
    return buildFailure(err);
  }
}
