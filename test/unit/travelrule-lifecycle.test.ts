import { describe, expect, it } from 'vitest';
import {
  CREATIONS,
  IllegalTransitionError,
  STATUSES,
  TRANSITIONS,
  canTransition,
  checkTransition,
  isTerminal,
  nextStatuses,
  type Status,
} from '../../src/travelrule/lifecycle.js';

const edges = Object.entries(TRANSITIONS).flatMap(([from, list]) =>
  list.map((e) => ({ from: from as Status, ...e })),
);

describe('travel rule lifecycle table', () => {
  it('has all 13 statuses of the spec as keys, and no other', () => {
    expect(STATUSES).toHaveLength(13);
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...STATUSES].sort());
  });

  it('reaches every status: each is a creation status or the target of an edge', () => {
    const reached = new Set<Status>([...CREATIONS.map((e) => e.to), ...edges.map((e) => e.to)]);
    expect([...reached].sort()).toEqual([...STATUSES].sort());
  });

  it.each(edges.map((e) => [e.from, e.to, e.direction, e.trigger, e.actor] as const))(
    'allows %s → %s (%s, %s by %s)',
    (from, to, direction, trigger, actor) => {
      expect(canTransition(from, to)).toBe(true);
      const dirs = direction === 'both' ? (['outgoing', 'incoming'] as const) : [direction];
      for (const d of dirs) {
        expect(canTransition(from, to, d)).toBe(true);
        expect(checkTransition(from, to, d, actor).trigger).toBe(trigger);
      }
    },
  );

  it('has terminal statuses without exits', () => {
    const terminal = STATUSES.filter(isTerminal).sort();
    expect(terminal).toEqual([
      'APPROVED',
      'COMPLETED',
      'OTHER_VASP_REJECTED',
      'REJECTED',
      'TRANSACTION_CONFIRMED',
    ]);
    for (const from of terminal) {
      for (const to of STATUSES) expect(canTransition(from, to)).toBe(false);
      expect(() => checkTransition(from, 'PENDING', 'outgoing', 'operator')).toThrow(
        /none \(terminal status\)/,
      );
    }
  });

  it.each([
    ['CREATED', 'PENDING'], // screening cannot be skipped
    ['SCORE', 'REJECTED'], // screening records, the operator decides
    ['PENDING', 'COMPLETED'],
    ['PENDING', 'WAITING_TX_HASH'],
    ['OTHER_VASP_PENDING', 'WAITING_TX_HASH'],
    ['OTHER_VASP_APPROVED', 'COMPLETED'],
    ['WAITING_ADDRESS_DATA', 'TRANSACTION_CONFIRMED'],
    ['WAITING_TX_HASH', 'PENDING'],
    ['PENDING', 'CREATED'],
  ] as const)('refuses %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });

  it('keeps the two directions apart', () => {
    expect(canTransition('PENDING', 'OTHER_VASP_PENDING', 'outgoing')).toBe(true);
    expect(canTransition('PENDING', 'OTHER_VASP_PENDING', 'incoming')).toBe(false);
    expect(canTransition('PENDING', 'WAITING_ADDRESS_DATA', 'incoming')).toBe(true);
    expect(canTransition('PENDING', 'WAITING_ADDRESS_DATA', 'outgoing')).toBe(false);
    expect(nextStatuses('PENDING', 'outgoing').sort()).toEqual(['OTHER_VASP_PENDING', 'REJECTED']);
    expect(nextStatuses('PENDING', 'incoming').sort()).toEqual([
      'OTHER_VASP_REJECTED',
      'REJECTED',
      'WAITING_ADDRESS_DATA',
    ]);
  });

  it('names from, to and the allowed next statuses in the error', () => {
    let err: unknown;
    try {
      checkTransition('PENDING', 'COMPLETED', 'outgoing', 'operator');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IllegalTransitionError);
    expect((err as Error).message).toBe(
      'travel rule outgoing transaction: PENDING → COMPLETED is not allowed; allowed next: OTHER_VASP_PENDING, REJECTED',
    );
    expect((err as IllegalTransitionError).allowed).toEqual(['OTHER_VASP_PENDING', 'REJECTED']);
  });

  it('refuses an edge taken by the wrong kind of actor (an API key cannot accept its own transaction)', () => {
    expect(() => checkTransition('PENDING', 'OTHER_VASP_PENDING', 'outgoing', 'api_key')).toThrow(
      'is taken by operator, not api_key',
    );
    expect(() => checkTransition('WAITING_TX_HASH', 'COMPLETED', 'outgoing', 'operator')).toThrow(
      IllegalTransitionError,
    );
  });

  it('creates only in CREATED (protocol flows) or APPROVED (receive_tx_without_protocol)', () => {
    expect(checkTransition(null, 'CREATED', 'outgoing', 'api_key').trigger).toBe('create_tx');
    expect(checkTransition(null, 'CREATED', 'incoming', 'counterparty').trigger).toBe(
      'receive_transfer',
    );
    expect(checkTransition(null, 'APPROVED', 'incoming', 'api_key').trigger).toBe(
      'receive_tx_without_protocol',
    );
    expect(() => checkTransition(null, 'APPROVED', 'outgoing', 'api_key')).toThrow(
      '(none) → APPROVED is not allowed; allowed next: CREATED',
    );
    expect(() => checkTransition(null, 'PENDING', 'outgoing', 'api_key')).toThrow(
      IllegalTransitionError,
    );
  });
});
