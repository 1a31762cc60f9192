import { describe, expect, it } from 'vitest';
import { AmlConfigSchema } from '../../src/config/aml.js';
import { riskBand, scoreTags } from '../../src/aml/score.js';
import { BASE_TAGS, buildTags, type BaseTag } from '../../src/aml/tags.js';
import { loadConfig } from '../../src/config/index.js';

const config = loadConfig({}).aml;
const score = (base: BaseTag[], direct: BaseTag[] = [], indirect: BaseTag[] = []) =>
  scoreTags(buildTags({ base, direct, indirect }), config);

describe('AML score (100 = highest risk)', () => {
  it('is 0 with no tag, and one tag alone scores weight × level factor', () => {
    expect(score([])).toBe(0);
    expect(score(['mixer'])).toBe(config.weights.mixer);
    expect(score([], ['mixer'])).toBe(
      Math.round(config.weights.mixer * config.level_factors.direct),
    );
    expect(score([], [], ['mixer'])).toBe(
      Math.round(config.weights.mixer * config.level_factors.indirect),
    );
  });

  it('scores a sanctioned address (base) at or above the high threshold, by default 100', () => {
    expect(score(['sanctioned'])).toBe(100);
    expect(score(['sanctioned'])).toBeGreaterThanOrEqual(config.thresholds.high);
    expect(riskBand(score(['sanctioned']), config.thresholds)).toBe('high');
  });

  it('orders the levels base > direct > indirect > clean for every tag with a weight', () => {
    for (const tag of BASE_TAGS) {
      if (config.weights[tag] === 0 || tag === 'new_wallet' || tag === 'invalid_tokens') continue;
      expect(score([tag])).toBeGreaterThan(score([], [tag]));
      expect(score([], [tag])).toBeGreaterThan(score([], [], [tag]));
      expect(score([], [], [tag])).toBeGreaterThan(0);
    }
  });

  it('combines tags as a noisy OR: more tags score higher, never past 100', () => {
    const one = score([], ['mixer']);
    const two = score([], ['mixer', 'phishing_activities']);
    expect(two).toBeGreaterThan(one);
    expect(two).toBe(Math.round(100 * (1 - (1 - 0.8 * 0.6) * (1 - 0.75 * 0.6))));
    const all = scoreTags(
      buildTags({ base: [...BASE_TAGS], direct: [...BASE_TAGS], indirect: [...BASE_TAGS] }),
      config,
    );
    expect(all).toBe(100);
  });

  it('follows configured weights and factors', () => {
    const custom = {
      ...config,
      weights: { ...config.weights, mixer: 50 },
      level_factors: { base: 1, direct: 0.5, indirect: 0 },
    };
    expect(scoreTags(buildTags({ base: [], direct: ['mixer'], indirect: [] }), custom)).toBe(25);
    expect(scoreTags(buildTags({ base: [], direct: [], indirect: ['sanctioned'] }), custom)).toBe(
      0,
    );
  });

  it('refuses thresholds out of order and weights out of range', () => {
    expect(
      AmlConfigSchema.safeParse({ ...config, thresholds: { low: 60, modarate: 50, high: 80 } })
        .success,
    ).toBe(false);
    expect(
      AmlConfigSchema.safeParse({ ...config, weights: { ...config.weights, mixer: 101 } }).success,
    ).toBe(false);
    const { mixer: _m, ...missing } = config.weights;
    expect(AmlConfigSchema.safeParse({ ...config, weights: missing }).success).toBe(false);
    expect(AmlConfigSchema.safeParse(config).success).toBe(true);
  });

  it('bands scores by the thresholds', () => {
    const t = { low: 25, modarate: 50, high: 75 };
    expect([0, 24, 25, 49, 50, 74, 75, 100].map((s) => riskBand(s, t))).toEqual([
      'none',
      'none',
      'low',
      'low',
      'modarate',
      'modarate',
      'high',
      'high',
    ]);
  });
});
