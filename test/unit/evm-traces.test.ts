import { describe, expect, it } from 'vitest';
import { internalTransfersOf, traceStateMissing } from '../../src/chains/evm/traces.js';
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
