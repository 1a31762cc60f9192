/**
 * Transaction detail with AML data (/analyze/tx): from the index when the transaction is there,
 * else from the node. Nothing outside this folder imports a file in it but this one.
 */
export { normalizeTxHash, txDetail } from './detail.js';
