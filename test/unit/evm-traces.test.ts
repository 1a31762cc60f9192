import { describe, expect, it } from 'vitest';
import {
  internalTransfersOf,
  internalTransfersOfBlock,
  traceStateMissing,
} from '../../src/chains/evm/traces.js';
import { NodeAnswerError } from '../../src/errors.js';

/**
 * Internal transfers from a call trace in geth's callTracer shape (as documented for
 * debug_traceTransaction / debug_traceBlockByNumber with `{"tracer": "callTracer"}`): frames
 * with `type`, `from`, `to`, `value` (hex, absent where none), `calls` and `error`.
 */

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';
const TX = `0x${'12'.repeat(32)}`;
const of = (top: unknown) => internalTransfersOf(top, 7n, TX);

describe('internalTransfersOf', () => {
  it('takes the frames below the top that moved coin, depth first, numbering every frame', () => {
    const top = {
      type: 'CALL',
      from: B,
      to: A,
      value: '0x5', // the transaction's own value: stored with it, not here
      calls: [
        { type: 'STATICCALL', from: A, to: C },
        {
          type: 'CALL',
          from: A,
          to: B.toUpperCase().replace('0X', '0x'),
          value: '0xde0b6b3a7640000',
          calls: [{ type: 'CALL', from: B, to: C, value: '0x1' }],
        },
        { type: 'CALL', from: A, to: C, value: '0x0' },
        { type: 'DELEGATECALL', from: A, to: C, value: '0x9' },
        { type: 'CREATE2', from: A, to: C, value: '0x2' },
        { type: 'SELFDESTRUCT', from: A, to: B, value: '0x3' },
      ],
    };
    expect(of(top)).toEqual([
      { index: 2, kind: 'call', from: A, to: B, value: 10n ** 18n },
      { index: 3, kind: 'call', from: B, to: C, value: 1n },
      { index: 6, kind: 'create', from: A, to: C, value: 2n },
      { index: 7, kind: 'selfdestruct', from: A, to: B, value: 3n },
    ]);
  });

  it('leaves out a failed frame and everything it called, keeping the numbering', () => {
    const top = {
      type: 'CALL',
      from: B,
      to: A,
      calls: [
        {
          type: 'CALL',
          from: A,
          to: B,
          value: '0x1',
          error: 'execution reverted',
          calls: [
            {
              type: 'CALL',
              from: B,
              to: C,
              value: '0x1',
              calls: [{ type: 'CALL', from: C, to: A, value: '0x1' }],
            },
          ],
        },
        { type: 'CALL', from: A, to: C, value: '0x4' },
      ],
    };
    expect(of(top)).toEqual([{ index: 4, kind: 'call', from: A, to: C, value: 4n }]);
  });

  it('gives nothing for a transaction that failed as a whole, or called nothing', () => {
    expect(
      of({
        type: 'CALL',
        from: B,
        to: A,
        error: 'out of gas',
        calls: [{ type: 'CALL', from: A, to: B, value: '0x1' }],
      }),
    ).toEqual([]);
    expect(of({ type: 'CALL', from: B, to: A, value: '0x1' })).toEqual([]);
    expect(of({ type: 'CALL', from: B, to: A, calls: null })).toEqual([]);
  });

  it('refuses what is not a frame, naming the block, the transaction and the field', () => {
    const bad = (frame: unknown) => () => of({ type: 'CALL', from: B, to: A, calls: [frame] });
    expect(() => of(null)).toThrow(NodeAnswerError);
    expect(bad({ type: 'CALL', from: A, to: B, value: 5 })).toThrow(
      `the node's call trace of transaction ${TX} of block 7 has a malformed call value: 5`,
    );
    expect(bad({ type: 'CALL', from: A, value: '0x1' })).toThrow(/malformed call recipient: none/);
    expect(bad({ from: A, to: B, value: '0x1' })).toThrow(/malformed call type/);
    expect(bad('frame')).toThrow(/malformed call frame/);
    expect(() => of({ type: 'CALL', from: B, to: A, calls: {} })).toThrow(
      /malformed list of calls/,
    );
  });

  it('walks a deep tree without recursion', () => {
    let frame: Record<string, unknown> = { type: 'CALL', from: A, to: B, value: '0x1' };
    for (let i = 0; i < 20_000; i++) frame = { type: 'CALL', from: A, to: B, calls: [frame] };
    const out = of(frame);
    expect(out).toEqual([{ index: 20_000, kind: 'call', from: A, to: B, value: 1n }]);
  });
});

describe('internalTransfersOfBlock (trace_block, the Parity trace format)', () => {
  const BLOCK = `0x${'bb'.repeat(32)}`;
  const TX2 = `0x${'34'.repeat(32)}`;
  const frame = (tx: string, traceAddress: number[], rest: Record<string, unknown>) => ({
    blockHash: BLOCK,
    transactionHash: tx,
    traceAddress,
    ...rest,
  });
  const call = (from: string, to: string, value: string, callType = 'call') => ({
    type: 'call',
    action: { callType, from, to, value },
  });
  const ofBlock = (traces: unknown[]) => internalTransfersOfBlock(traces, 7n, BLOCK, [TX, TX2]);

  it('gives each transaction its transfers, numbered as the call tracer numbers frames', () => {
    const traces = [
      frame(TX, [], call(B, A, '0x5')),
      frame(TX, [0], call(A, C, '0x0', 'staticcall')),
      frame(TX, [1], call(A, B, '0x2')),
      frame(TX, [1, 0], call(B, C, '0x1')),
      frame(TX, [2], call(A, C, '0x9', 'delegatecall')),
      frame(TX, [3], { type: 'create', action: { from: A, value: '0x3' }, result: { address: C } }),
      frame(TX2, [], call(C, A, '0x0')),
      frame(TX2, [0], {
        type: 'suicide',
        action: { address: A, refundAddress: B.toUpperCase().replace('0X', '0x'), balance: '0x4' },
      }),
      { type: 'reward', action: { author: A, value: '0x1' }, blockHash: BLOCK, traceAddress: [] },
    ];
    expect(ofBlock(traces)).toEqual([
      [
        { index: 2, kind: 'call', from: A, to: B, value: 2n },
        { index: 3, kind: 'call', from: B, to: C, value: 1n },
        { index: 5, kind: 'create', from: A, to: C, value: 3n },
      ],
      [{ index: 1, kind: 'selfdestruct', from: A, to: B, value: 4n }],
    ]);
    // The same tree through the call tracer gives the same numbers.
    expect(
      of({
        type: 'CALL',
        from: B,
        to: A,
        calls: [
          { type: 'STATICCALL', from: A, to: C },
          {
            type: 'CALL',
            from: A,
            to: B,
            value: '0x2',
            calls: [{ type: 'CALL', from: B, to: C, value: '0x1' }],
          },
          { type: 'DELEGATECALL', from: A, to: C, value: '0x9' },
          { type: 'CREATE', from: A, to: C, value: '0x3' },
        ],
      }),
    ).toEqual(ofBlock(traces)[0]);
  });

  it('leaves out a failed frame and every frame below it, and a failed transaction whole', () => {
    const traces = [
      frame(TX, [], call(B, A, '0x0')),
      frame(TX, [0], { ...call(A, B, '0x1'), error: 'Reverted' }),
      frame(TX, [0, 0], call(B, C, '0x1')),
      frame(TX, [0, 0, 0], call(C, A, '0x1')),
      frame(TX, [1], call(A, C, '0x4')),
      frame(TX, [10], call(A, C, '0x6')), // not below [1]
      frame(TX2, [], { ...call(C, A, '0x0'), error: 'out of gas' }),
      frame(TX2, [0], call(A, B, '0x1')),
    ];
    expect(ofBlock(traces)).toEqual([
      [
        { index: 4, kind: 'call', from: A, to: C, value: 4n },
        { index: 5, kind: 'call', from: A, to: C, value: 6n },
      ],
      [],
    ]);
  });

  it('refuses traces of another block or transaction, a transaction without traces, and what is not a trace', () => {
    const both = [frame(TX, [], call(B, A, '0x0')), frame(TX2, [], call(B, A, '0x0'))];
    expect(() => ofBlock([{ ...both[0], blockHash: `0x${'cc'.repeat(32)}` }, both[1]])).toThrow(
      /are of block 0xcccc.*the chain changed while reading/,
    );
    expect(() =>
      ofBlock([both[0], { ...both[1], transactionHash: `0x${'99'.repeat(32)}` }]),
    ).toThrow(/name transaction 0x9999.*which the block does not hold/);
    expect(() => ofBlock([both[0]])).toThrow(`has no trace of its transaction ${TX2}`);
    expect(() => ofBlock([...both, frame(TX, [0], call(A, B, '1'))])).toThrow(
      `the node's call trace of transaction ${TX} of block 7 has a malformed trace value: "1"`,
    );
    expect(() => ofBlock([...both, frame(TX, [0], call(A, 'nobody', '0x1'))])).toThrow(
      /malformed trace recipient: "nobody"/,
    );
    expect(() => ofBlock([...both, frame(TX, ['x' as never], call(A, B, '0x1'))])).toThrow(
      /malformed trace address/,
    );
    expect(() => internalTransfersOfBlock({}, 7n, BLOCK, [TX])).toThrow(NodeAnswerError);
  });
});

describe('traceStateMissing', () => {
  it("tells a node's missing state from other refusals", () => {
    for (const m of [
      'required historical state unavailable (reexec=128)',
      'missing trie node 0xabc (path ) state 0xabc is not available',
      'historical state not available in path scheme yet',
      'state at block #12 is pruned',
    ])
      expect(traceStateMissing(m), m).toBe(true);
    for (const m of [
      'execution timeout',
      'the method debug_traceBlockByNumber does not exist',
      'tracer not found',
    ])
      expect(traceStateMissing(m), m).toBe(false);
  });
});
