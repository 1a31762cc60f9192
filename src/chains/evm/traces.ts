import { NodeAnswerError } from '../../errors.js';

/**
 * Internal transfers: native coin a contract moves inside a transaction (a mixer's withdrawal to
 * its recipient, an exchange's sweep, a contract's payout), which neither the transaction nor its
 * receipt shows. Read from the node's traces of a block: `trace_block` (the Parity trace format:
 * erigon, nethermind, reth, besu, anvil; internalTransfersOfBlock) or, where the node has none
 * (geth), geth's `callTracer` (`debug_traceBlockByNumber(n, {tracer: "callTracer"})`;
 * internalTransfersOf): a tree of frames per transaction, each with its `type`, `from`, `to`,
 * `value`, the frames it made in `calls`, and `error` when it failed.
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

/** A frame's coin amount (a JSON-RPC quantity); else the node's error, naming `what`. */
function amountOf(v: unknown, block: bigint, tx: string, what: string): bigint {
  if (typeof v !== 'string' || !QUANTITY.test(v)) throw malformed(block, tx, what, v);
  return BigInt(v);
}

/** A frame's address, lower-case; else the node's error, naming `what`. */
function addressOf(v: unknown, block: bigint, tx: string, what: string): string {
  if (typeof v !== 'string' || !v.startsWith('0x')) throw malformed(block, tx, what, v);
  return v.toLowerCase();
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
      const value = amountOf(f.value, block, tx, 'call value');
      if (value > 0n)
        out.push({
          index,
          kind,
          from: addressOf(f.from, block, tx, 'call sender'),
          to: addressOf(f.to, block, tx, 'call recipient'),
          value,
        });
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

/** One entry of a block's `trace_block` answer (the Parity/OpenEthereum trace format). */
interface FlatTrace {
  type?: unknown;
  action?: {
    callType?: unknown;
    from?: unknown;
    to?: unknown;
    value?: unknown;
    address?: unknown;
    refundAddress?: unknown;
    balance?: unknown;
  };
  result?: { address?: unknown } | null;
  error?: unknown;
  traceAddress?: unknown;
  transactionHash?: unknown;
  blockHash?: unknown;
}

/**
 * The internal transfers of each transaction of a block (in the block's order), from its
 * `trace_block` answer: the Parity trace format that erigon, nethermind, reth, besu and anvil
 * answer, a flat list of every transaction's frames in the call tree's order, each with its
 * `traceAddress` (its path from the transaction's frame, `[]`). The same rule as the call tracer's
 * (internalTransfersOf), and the same numbering (a frame's place in its transaction's list): a
 * `call` (callType `call`), `create` or `suicide` frame below the top that moved coin, unless it
 * or a frame above it failed (`error`). A frame of another block or transaction (the chain changed
 * while reading) or a transaction without frames is the node's error, read again. Block rewards
 * (`reward`, no transaction) are not transfers inside a transaction.
 */
export function internalTransfersOfBlock(
  traces: unknown,
  block: bigint,
  blockHash: string,
  hashes: readonly string[],
): InternalTransfer[][] {
  if (!Array.isArray(traces))
    throw new NodeAnswerError(
      `the node answered trace_block(${block}) with something that is not a list`,
    );
  const position = new Map(hashes.map((h, i) => [h, i]));
  const out: InternalTransfer[][] = hashes.map(() => []);
  const seen = hashes.map(() => 0);
  // Per transaction, the paths of frames that failed: everything below one moved nothing.
  const failed: string[][] = hashes.map(() => []);
  for (const raw of traces as unknown[]) {
    if (typeof raw !== 'object' || raw === null)
      throw new NodeAnswerError(
        `the node's trace_block(${block}) has an entry that is not a trace`,
      );
    const t = raw as FlatTrace;
    if (t.type === 'reward' || t.transactionHash === null || t.transactionHash === undefined)
      continue;
    if (typeof t.blockHash === 'string' && t.blockHash.toLowerCase() !== blockHash)
      throw new NodeAnswerError(
        `the node's traces of block ${block} (${blockHash}) are of block ${t.blockHash.toLowerCase()}: the chain changed while reading; reading again`,
      );
    const tx = typeof t.transactionHash === 'string' ? t.transactionHash.toLowerCase() : '';
    const i = position.get(tx);
    if (i === undefined)
      throw new NodeAnswerError(
        `the node's traces of block ${block} name transaction ${String(t.transactionHash).slice(0, 80)}, which the block does not hold: the chain changed while reading; reading again`,
      );
    const index = seen[i]!++;
    if (!Array.isArray(t.traceAddress) || t.traceAddress.some((n) => !Number.isInteger(n)))
      throw malformed(block, tx, 'trace address', t.traceAddress);
    // A path as text with a separator after each step: "0.2." is below "0." and not below "0.20.".
    const path = t.traceAddress.map((n) => `${n}.`).join('');
    if (failed[i]!.some((p) => path.startsWith(p))) continue;
    if (t.error !== undefined && t.error !== null) {
      failed[i]!.push(path);
      continue;
    }
    if (path === '') continue; // the transaction's own frame: its value is stored with it
    const a = t.action;
    if (typeof a !== 'object' || a === null) throw malformed(block, tx, 'trace action', a);
    let move: Omit<InternalTransfer, 'index'> | undefined;
    const value = (v: unknown) => amountOf(v, block, tx, 'trace value');
    if (t.type === 'call') {
      if (a.callType === 'call')
        move = { kind: 'call', from: a.from as string, to: a.to as string, value: value(a.value) };
    } else if (t.type === 'create') {
      move = {
        kind: 'create',
        from: a.from as string,
        to: t.result?.address as string,
        value: value(a.value),
      };
    } else if (t.type === 'suicide' || t.type === 'selfdestruct') {
      move = {
        kind: 'selfdestruct',
        from: a.address as string,
        to: a.refundAddress as string,
        value: value(a.balance),
      };
    } else if (typeof t.type !== 'string') throw malformed(block, tx, 'trace type', t.type);
    if (move && move.value > 0n)
      out[i]!.push({
        index,
        kind: move.kind,
        from: addressOf(move.from, block, tx, 'trace sender'),
        to: addressOf(move.to, block, tx, 'trace recipient'),
        value: move.value,
      });
  }
  const untraced = seen.findIndex((n) => n === 0);
  if (untraced >= 0)
    throw new NodeAnswerError(
      `the node's trace_block(${block}) has no trace of its transaction ${hashes[untraced]}: reading again`,
    );
  return out;
}
