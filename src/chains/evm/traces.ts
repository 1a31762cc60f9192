import { NodeAnswerError } from '../../errors.js';

/**
 * Internal transfers: native coin a contract moves inside a transaction (a mixer's withdrawal to
 * its recipient, an exchange's sweep, a contract's payout), which neither the transaction nor its
 * receipt shows. Read from the node's call trace of each transaction, as geth's `callTracer`
 * gives it (`debug_traceBlockByNumber(n, {tracer: "callTracer"})`; erigon, nethermind, reth, besu
 * and anvil answer the same shape): a tree of frames, each with its `type`, `from`, `to`, `value`,
 * the frames it made in `calls`, and `error` when it failed.
 */
export interface InternalTransfer {
  /** The frame's place in the transaction's call tree, depth first (the transaction itself is 0). */
  index: number;
  kind: 'call' | 'create' | 'selfdestruct';
  from: string;
  to: string;
  value: bigint;
}

/** One transaction's trace in a block's answer: `txHash` where the node gives it (geth 1.11+). */
export interface TraceOfTx {
  txHash?: unknown;
  result?: unknown;
  error?: unknown;
}

interface Frame {
  type?: unknown;
  from?: unknown;
  to?: unknown;
  value?: unknown;
  error?: unknown;
  calls?: unknown;
}

/** The frame types that move coin: a call, a contract's creation, a self-destruct's payout. */
const MOVES = new Map<string, InternalTransfer['kind']>([
  ['CALL', 'call'],
  ['CREATE', 'create'],
  ['CREATE2', 'create'],
  ['SELFDESTRUCT', 'selfdestruct'],
]);

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

function malformed(block: bigint, tx: string, what: string, value: unknown): NodeAnswerError {
  const given = value === undefined ? 'none' : JSON.stringify(value)?.slice(0, 80);
  return new NodeAnswerError(
    `the node's call trace of transaction ${tx} of block ${block} has a malformed ${what}: ${given}`,
  );
}

/**
 * The internal transfers of one transaction, from its call trace's top frame: every frame below
 * the top that moved coin (a CALL, CREATE, CREATE2 or SELFDESTRUCT with a value above 0), in the
 * tree's order. A frame that failed moved nothing, and neither did anything it called (its
 * state was undone): its subtree is left out, and a transaction that failed as a whole has none.
 * DELEGATECALL, STATICCALL and CALLCODE move no coin between two addresses. The top frame's own
 * value is the transaction's (stored with it). Anything that is not a frame is the node's error.
 */
export function internalTransfersOf(top: unknown, block: bigint, tx: string): InternalTransfer[] {
  const out: InternalTransfer[] = [];
  if (typeof top !== 'object' || top === null) throw malformed(block, tx, 'trace', top);
  if ((top as Frame).error !== undefined) return out;
  let index = 0;
  // Depth first, in order: a stack of the frames still to visit, the next one on top.
  const stack: unknown[] = [];
  const pushChildren = (f: Frame) => {
    if (f.calls === undefined || f.calls === null) return;
    if (!Array.isArray(f.calls)) throw malformed(block, tx, 'list of calls', f.calls);
    for (let i = f.calls.length - 1; i >= 0; i--) stack.push(f.calls[i]);
  };
  pushChildren(top as Frame);
  while (stack.length) {
    const f = stack.pop() as Frame;
    index++;
    if (typeof f !== 'object' || f === null) throw malformed(block, tx, 'call frame', f);
    if (f.error !== undefined) {
      // Its whole subtree failed with it: skip it, but keep the numbering of the tree.
      index += countFrames(f) - 1;
      continue;
    }
    if (typeof f.type !== 'string') throw malformed(block, tx, 'call type', f.type);
    const kind = MOVES.get(f.type.toUpperCase());
    if (kind && f.value !== undefined && f.value !== null) {
      if (typeof f.value !== 'string' || !QUANTITY.test(f.value))
        throw malformed(block, tx, 'call value', f.value);
      const value = BigInt(f.value);
      if (value > 0n) {
        if (typeof f.from !== 'string' || !f.from.startsWith('0x'))
          throw malformed(block, tx, 'call sender', f.from);
        if (typeof f.to !== 'string' || !f.to.startsWith('0x'))
          throw malformed(block, tx, 'call recipient', f.to);
        out.push({ index, kind, from: f.from.toLowerCase(), to: f.to.toLowerCase(), value });
      }
    }
    pushChildren(f);
  }
  return out;
}

/** The frames of a subtree, itself included. */
function countFrames(top: Frame): number {
  let n = 0;
  const stack: unknown[] = [top];
  while (stack.length) {
    const f = stack.pop() as Frame;
    n++;
    if (typeof f === 'object' && f !== null && Array.isArray(f.calls)) stack.push(...f.calls);
  }
  return n;
}

/**
 * Whether a node's refusal to trace a block says it lacks the state to re-run it (a full node
 * keeps the state of recent blocks only; an archive node has all), rather than the method.
 */
export function traceStateMissing(message: string): boolean {
  return /historical state|state .*(unavailable|not available|pruned|missing)|missing trie node|required .*state|state (is )?pruned|pruned state/i.test(
    message,
  );
}
