import { createHash } from 'node:crypto';

/**
 * A chain event's id as the README states it (sql/0048, 0049), computed here independently: a
 * name-based UUID, version 8, of SHA-256 over `tollgate webhook event|<tracked_id>|<kind>|
 * <network>|<tx_hash>|<block_hash>|<t|f confirmed>|<t|f removed>`, then `|<incarnation>` when it
 * is above 0.
 */
export function expectedEventId(e: {
  tracked_id: string | number;
  kind: string;
  network: string;
  tx_hash: string;
  block_hash: string;
  confirmed: boolean;
  removed: boolean;
  incarnation: number;
}): string {
  const parts = [
    'tollgate webhook event',
    String(e.tracked_id),
    e.kind,
    e.network,
    e.tx_hash,
    e.block_hash,
    e.confirmed ? 't' : 'f',
    e.removed ? 't' : 'f',
    ...(e.incarnation > 0 ? [String(e.incarnation)] : []),
  ];
  const h = createHash('sha256').update(parts.join('|'), 'utf8').digest('hex');
  const variant = '89ab'[Number.parseInt(h[16]!, 16) & 3];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
