import { describe, expect, it } from 'vitest';
import { tagFollowsCategories } from '../../src/aml/rescan-queue.js';

describe('tagFollowsCategories', () => {
  const changed = new Set(['sanctioned']);
  it('takes a tag of a changed category, at every level', () => {
    for (const tag of ['sanctioned', 'direct_sanctioned', 'indirect_sanctioned'])
      expect(tagFollowsCategories(tag, changed)).toBe(true);
  });
  it('leaves a tag of a category that did not change', () => {
    for (const tag of ['mixer', 'direct_mixer', 'indirect_darkweb_transactions'])
      expect(tagFollowsCategories(tag, changed)).toBe(false);
    expect(tagFollowsCategories('direct_sanctioned', new Set())).toBe(false);
  });
  it('takes a tag no label category names (computed from chain data) after any change', () => {
    const tag = 'direct_number_of_malicious_contracts_created';
    expect(tagFollowsCategories(tag, changed)).toBe(true);
  });
});
