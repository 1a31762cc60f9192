import type { Context } from 'hono';
import type { Sql } from '../../db/index.js';
import { type HistoryReach, historyHeader, historyReach } from '../../wallet/index.js';

/** The wallet answers' X-Tollgate-History header, for the OpenAPI document. */
export const HISTORY_HEADER = {
  'X-Tollgate-History':
    'Not in the spec. How far the indexed history of each EVM network in the answer reaches: `eth=12000000-12345678, polygon=none` (first and last block stored, every block between them indexed; `none`: nothing indexed yet). Transactions and NFT holdings older than a network\'s first block are not in the answer: an empty list with eth=none or a late first block means "not indexed", not "no activity".',
};

/** Sets X-Tollgate-History from the networks' cursors, read now. */
export async function setHistoryHeader(
  c: Context,
  sql: Sql,
  networks: readonly string[],
): Promise<void> {
  putHistoryHeader(c, await historyReach(sql, networks));
}

/** Sets X-Tollgate-History from a reach read with the answer's rows (one snapshot). */
export function putHistoryHeader(c: Context, reach: readonly HistoryReach[]): void {
  c.header('X-Tollgate-History', historyHeader(reach));
}
