import { expect } from 'vitest';
import type { Sql } from '../../src/db/index.js';
import { call } from './http.js';

/**
 * The AML counterparty graph of a test's database, read as the tests of the value-flow rule
 * compare it: an edge's transaction count, and the whole graph with the stored exposure.
 */

/** How many transactions `a` shared with `b` on eth (address_edges), undefined without an edge. */
export async function edgeCount(sql: Sql, a: string, b: string): Promise<string | undefined> {
  const [row] = await sql<{ tx_count: string }[]>`
    select tx_count::text from address_edges where network = 'eth' and address = ${a.toLowerCase()} and counterparty = ${b.toLowerCase()}`;
  return row?.tx_count;
}

/** The graph and the stored exposure of eth, in order, for comparing before and after a reorg. */
export async function graphOf(sql: Sql) {
  return {
    edges: await sql`
      select address, counterparty, tx_count::text from address_edges where network = 'eth'
      order by address, counterparty`,
    exposure: await sql`
      select address, category, direct_n::text, indirect_n::text from address_exposure
      where network = 'eth' order by address, category`,
  };
}

/** Tracks `address` for live AML with its alerts to `webhook` and its stream to `streamWebhook`. */
export async function trackLiveAml(
  baseUrl: string,
  apikey: string,
  address: string,
  webhook: string,
  streamWebhook: string,
): Promise<void> {
  const res = await call(baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey },
    body: { address, webhook, stream_webhook: streamWebhook },
  });
  expect(res.json.code).toBe(0);
}
