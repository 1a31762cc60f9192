import { describe, expect, it } from 'vitest';
import { LABEL_CATEGORIES } from '../../src/aml/labels/types.js';
import {
  ALL_TAGS,
  BASE_TAGS,
  PREFIXED_TAGS,
  buildTags,
  parseTag,
  trueTags,
} from '../../src/aml/tags.js';
import { isNewWallet } from '../../src/aml/analyze.js';

describe('AML tags object', () => {
  it('has the spec’s 16 base tags and direct_/indirect_ variants of all but new_wallet and invalid_tokens', () => {
    expect(BASE_TAGS).toHaveLength(16);
    expect(PREFIXED_TAGS).toHaveLength(14);
    expect(ALL_TAGS).toHaveLength(44);
    expect(new Set(ALL_TAGS).size).toBe(44);
    for (const t of [
      'direct_new_wallet',
      'indirect_new_wallet',
      'direct_invalid_tokens',
      'indirect_invalid_tokens',
    ])
      expect(ALL_TAGS).not.toContain(t);
    expect(ALL_TAGS).toEqual(
      expect.arrayContaining([
        'mixer',
        'direct_mixer',
        'indirect_mixer',
        'direct_number_of_malicious_contracts_created',
      ]),
    );
    for (const c of LABEL_CATEGORIES) expect(BASE_TAGS).toContain(c);
  });

  it('builds every tag as a boolean, true where found, dropping variants the spec lacks', () => {
    const tags = buildTags({
      base: ['sanctioned'],
      direct: ['mixer', 'invalid_tokens'],
      indirect: ['phishing_activities', 'new_wallet'],
    });
    expect(Object.keys(tags)).toEqual(ALL_TAGS);
    expect(Object.values(tags).every((v) => typeof v === 'boolean')).toBe(true);
    expect(trueTags(tags)).toEqual({
      sanctioned: true,
      direct_mixer: true,
      indirect_phishing_activities: true,
    });
    expect(buildTags({ base: [], direct: [], indirect: [] })).toEqual(
      Object.fromEntries(ALL_TAGS.map((t) => [t, false])),
    );
  });

  it('parses tag names into base tag and level', () => {
    expect(parseTag('mixer')).toEqual({ tag: 'mixer', level: 'base' });
    expect(parseTag('direct_sanctioned')).toEqual({ tag: 'sanctioned', level: 'direct' });
    expect(parseTag('indirect_number_of_malicious_contracts_created')).toEqual({
      tag: 'number_of_malicious_contracts_created',
      level: 'indirect',
    });
    expect(parseTag('direct_new_wallet')).toBeUndefined();
    expect(parseTag('banana')).toBeUndefined();
  });
});

describe('new_wallet', () => {
  const cfg = { new_wallet_days: 30, new_wallet_min_tx: 5 };
  const now = 1_800_000_000;
  it.each<[{ firstSeen: number | null; txCount: number }, boolean, string]>([
    [{ firstSeen: null, txCount: 0 }, true, 'never seen'],
    [{ firstSeen: now - 29 * 86_400, txCount: 100 }, true, 'first seen 29 days ago'],
    [{ firstSeen: now - 31 * 86_400, txCount: 4 }, true, 'old but 4 transactions'],
    [{ firstSeen: now - 31 * 86_400, txCount: 5 }, false, 'old with 5 transactions'],
  ])('%o → %s (%s)', (facts, expected) => {
    expect(isNewWallet(facts, cfg, now)).toBe(expected);
  });
});
