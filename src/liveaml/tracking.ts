import type { Sql } from '../db/index.js';
import {
  NO_SUBSCRIPTION_LIMITS,
  subscribe,
  type SubscriptionLimits,
  subscriptionPage,
  unsubscribe,
} from '../streams/index.js';

/**
 * Live AML tracking: a key's "call my AML webhook when this address does something risky"
 * subscriptions. They share the tracked_addresses row of (key, address) with the stream
 * (src/streams/streams.ts): aml_webhook and stream_webhook are two optional subscriptions on it,
 * and a row with neither is deleted. Tracking belongs to the key that created it.
 */

export interface TrackingRecord {
  address: string;
  aml_webhook: string;
  created_at: string;
  /** The same key also streams this address. */
  has_stream: boolean;
  /** Paused (POST /v2/liveaml/pause): its alerts are kept, not sent, until it is resumed. */
  paused: boolean;
}

/**
 * Starts tracking, or updates the AML webhook when the key already tracks the address (its
 * created_at stays). `streamWebhook`, when given, also creates or updates the stream on the same
 * row; when not given, an existing stream is left as it is.
 */
export async function startTracking(
  sql: Sql,
  apiKeyId: string,
  address: string,
  family: string,
  amlWebhook: string,
  streamWebhook?: string,
  limits: SubscriptionLimits = NO_SUBSCRIPTION_LIMITS,
): Promise<void> {
  await subscribe(
    sql,
    apiKeyId,
    address,
    family,
    { aml: amlWebhook, ...(streamWebhook ? { stream: streamWebhook } : {}) },
    limits,
  );
}

/**
 * Stops tracking; the row goes when no stream remains on it. False when this key does not
 * track the address (another key's tracking is never touched). Recorded events stay listed.
 */
export function stopTracking(sql: Sql, apiKeyId: string, address: string): Promise<boolean> {
  return unsubscribe(sql, apiKeyId, address, 'aml');
}

/** This key's tracked addresses, oldest tracking first (the order of /stream/list). */
export async function listTracking(
  sql: Sql,
  apiKeyId: string,
  page: number,
  limit: number,
): Promise<{ rows: TrackingRecord[]; total: number }> {
  const { total, rows } = await subscriptionPage(sql, apiKeyId, 'aml', page, limit);
  return {
    total,
    rows: rows.map((r) => ({
      address: r.address,
      aml_webhook: r.webhook,
      created_at: r.created_at,
      has_stream: r.has_stream,
      paused: r.paused,
    })),
  };
}
