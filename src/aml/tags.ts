import { BASE_TAGS } from '../config/aml.js';
import { LABEL_CATEGORIES } from './labels/types.js';

/**
 * The spec's AML tags. A base tag X is true when the address itself is X; `direct_X` when it
 * has a counterparty that is X (one hop); `indirect_X` when a counterparty of it has a
 * counterparty that is X (a path of exactly two hops, the queried address excluded as the
 * second hop). Direct and indirect are computed independently: an address can be both.
 */
export { BASE_TAGS };

export type BaseTag = (typeof BASE_TAGS)[number];
export type TagLevel = 'base' | 'direct' | 'indirect';

/** Tags without direct_/indirect_ variants (the spec: a property of the address itself). */
const UNPREFIXED: ReadonlySet<BaseTag> = new Set(['new_wallet', 'invalid_tokens']);

/** Base tags that have direct_ and indirect_ variants. */
export const PREFIXED_TAGS: readonly BaseTag[] = BASE_TAGS.filter((t) => !UNPREFIXED.has(t));

/** Every key of the tags object, in answer order: base tags, then direct_, then indirect_ (44). */
export const ALL_TAGS: readonly string[] = [
  ...BASE_TAGS,
  ...PREFIXED_TAGS.map((t) => `direct_${t}`),
  ...PREFIXED_TAGS.map((t) => `indirect_${t}`),
];

/** Tag computed from chain data (a labelled contract deployed), not from a label category. */
export const MALICIOUS_CONTRACTS: BaseTag = 'number_of_malicious_contracts_created';

export type AmlTags = Record<string, boolean>;

/** What was found about an address, per level: the base tags that hold there. */
export interface Findings {
  base: Iterable<BaseTag>;
  direct: Iterable<BaseTag>;
  indirect: Iterable<BaseTag>;
}

export function isBaseTag(value: string): value is BaseTag {
  return (BASE_TAGS as readonly string[]).includes(value);
}

/** Every label category is a base tag: a compile-time check that the two lists agree. */
export const LABEL_TAGS: readonly BaseTag[] = LABEL_CATEGORIES;

const ALL_FALSE: Readonly<AmlTags> = Object.freeze(
  Object.fromEntries(ALL_TAGS.map((t) => [t, false])),
);

/** The full tags object: every tag a boolean; prefixes the spec does not have are dropped. */
export function buildTags(findings: Findings): AmlTags {
  // A copy of one object made once: Object.fromEntries per answer was 2.7% of the API's CPU
  // under load on /analyze/aml.
  const tags: AmlTags = { ...ALL_FALSE };
  for (const t of findings.base) tags[t] = true;
  for (const t of findings.direct) if (!UNPREFIXED.has(t)) tags[`direct_${t}`] = true;
  for (const t of findings.indirect) if (!UNPREFIXED.has(t)) tags[`indirect_${t}`] = true;
  return tags;
}

/** Only the tags that are true (tx_detail's aml_data.tags). */
export function trueTags(tags: AmlTags): AmlTags {
  return Object.fromEntries(Object.entries(tags).filter(([, v]) => v));
}

/** The base tag and level of a tag name (`indirect_mixer` → mixer, indirect). */
export function parseTag(name: string): { tag: BaseTag; level: TagLevel } | undefined {
  const m = /^(direct_|indirect_)?(.+)$/.exec(name)!;
  const tag = m[2]!;
  if (!isBaseTag(tag)) return undefined;
  const level: TagLevel =
    m[1] === 'direct_' ? 'direct' : m[1] === 'indirect_' ? 'indirect' : 'base';
  if (level !== 'base' && UNPREFIXED.has(tag)) return undefined;
  return { tag, level };
}
