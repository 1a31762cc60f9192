/**
 * One line saying what a webhook body is, for the demo receiver: the spec's stream (EVM and
 * Bitcoin shapes), live AML and travel rule webhooks, retractions and replays. Never throws: a
 * body it does not know is shown as it came.
 */
export function summarizeWebhook(body: string): string {
  let p: Record<string, any>;
  try {
    p = JSON.parse(body) as Record<string, any>;
  } catch {
    return body;
  }
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return body;
  const flags = [p.removed ? 'RETRACTED' : '', p.replay ? 'replay' : ''].filter(Boolean);
  const marks = flags.length ? ` [${flags.join(', ')}]` : '';
  const state = p.confirmed ? 'confirmed' : 'unconfirmed';
  if (typeof p.transaction_ref === 'string') return `travel rule ${p.transaction_ref}: ${p.status}`;
  if (typeof p.score === 'number' && p.hash_tags !== undefined) {
    const tags = Object.keys(p.hash_tags ?? {}).filter((t) => p.hash_tags[t] === true);
    return `live AML ${p.address} score ${p.score} tx ${p.hash} block ${p.block_number}: ${tags.join(', ') || 'no tag'}${marks}`;
  }
  if (p.tx && typeof p.tx === 'object') {
    const tokens = ['erc20Transfers', 'erc721Transfers', 'erc1155Transfers']
      .map((k) => (Array.isArray(p[k]) ? p[k].length : 0))
      .reduce((a, b) => a + b, 0);
    return `${p.network} ${state} tx ${p.tx.hash} ${p.tx.from} -> ${p.tx.to} value ${p.tx.formattedValue}${tokens ? ` (${tokens} token transfer${tokens > 1 ? 's' : ''})` : ''}${marks}`;
  }
  if (typeof p.hash === 'string' && Array.isArray(p.inputs) && Array.isArray(p.outputs)) {
    const paid = (p.mapped?.outputs ?? []) as { address?: string; value?: number }[];
    const to = paid.map((o) => `${o.address} ${o.value}`).join(', ');
    return `${p.network ?? 'bitcoin-family'} ${state} tx ${p.hash} fee ${p.fee} -> ${to}${marks}`;
  }
  return body;
}
