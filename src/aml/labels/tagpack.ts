import { isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { LabelFileError } from './csv-labels.js';
import { categoryOfConcept, normaliseConcept, tagpackNetworkRule } from './tagpack-codes.js';
import { notForTargets, validateForTarget } from './targets.js';
import {
  addLineRows,
  emptyParsed,
  type LabelCategory,
  type LabelRow,
  type ParsedLabels,
} from './types.js';

/** Longest stored name, "<label> (<source>)": a label and a source URL fit with room to spare. */
const MAX_NAME_CHARS = 500;

/** A YAML value read with the failsafe schema: every scalar is text, never a number or a date. */
type Value = string | Value[] | Map<string, Value>;

/** Why a tag is not stored: refused (a fault of the tag) or skipped (nothing for Tollgate). */
class TagProblem {
  constructor(
    readonly kind: 'refused' | 'skipped',
    readonly reason: string,
  ) {}
}

/**
 * Parses a GraphSense TagPack: a YAML mapping of header fields and a `tags` list. A header field
 * that is also a tag field (label, source, currency, network, category, abuse, concepts, …) is
 * the default of every tag that does not set it; the fields of a `header:` mapping count as
 * header fields. Read per tag: address, label, source, network (or currency), and the AML
 * categories of its category, abuse and concepts (tagpack-codes.ts); each category gives one
 * label per network target, named "<label> (<source>)", under the import's `source`. Scalars are
 * read as text (the YAML failsafe schema), so an unquoted 0x… address stays an address.
 *
 * A tag is refused, with the line it starts on, when a required field is missing or not text or
 * its address is not valid for its network; it is skipped, with the reason, when it has no AML
 * category, is for a network Tollgate does not have, or tags a transaction rather than an
 * address. A file that is not valid YAML or has no tags list is refused whole (LabelFileError).
 */
export function parseTagPack(input: string, source: string): ParsedLabels {
  const lineCounter = new LineCounter();
  const doc = parseDocument(input, {
    schema: 'failsafe',
    merge: true,
    uniqueKeys: true,
    lineCounter,
    prettyErrors: false,
  });
  const [error] = doc.errors;
  if (error) {
    const at = lineCounter.linePos(error.pos[0]);
    const where = `line ${at.line}, column ${at.col}: `;
    const what =
      error.code === 'MULTIPLE_DOCS'
        ? 'a TagPack is one YAML document, this file holds several (---)'
        : error.message;
    throw new LabelFileError(`not valid YAML: ${where}${what}`);
  }
  const root = doc.toJS({ mapAsMap: true }) as Value | null;
  if (!(root instanceof Map))
    throw new LabelFileError('not a TagPack: expected a YAML mapping with header fields and tags');
  const header = new Map(root);
  header.delete('tags');
  const nested = header.get('header');
  if (nested !== undefined) {
    if (!(nested instanceof Map))
      throw new LabelFileError(
        'header must be a mapping of header fields (a header: !include is not followed: put the fields in the file)',
      );
    for (const [key, value] of nested) header.set(key, value);
    header.delete('header');
  }

  const tagsNode = doc.get('tags', true);
  const parsed = emptyParsed();
  if (isScalar(tagsNode) && tagsNode.value === '') return parsed; // `tags:` with no tag under it
  if (!isSeq(tagsNode))
    throw new LabelFileError(
      tagsNode === undefined
        ? 'not a TagPack: it has no tags list'
        : 'not a TagPack: tags must be a list of tags',
    );
  const tags = root.get('tags') as Value[];
  const seen = new Set<string>();
  tags.forEach((tag, index) => {
    const range = (tagsNode.items[index] as Node | undefined)?.range;
    const line = range ? lineCounter.linePos(range[0]).line : 0;
    parsed.read++;
    try {
      addLineRows(parsed, seen, readTag(tag, header, source));
    } catch (err) {
      if (!(err instanceof TagProblem)) throw err;
      parsed[err.kind].push({ line, reason: err.reason });
    }
  });
  return parsed;
}

/** The label rows of one tag; throws a TagProblem when it gives none. */
function readTag(tag: Value, header: ReadonlyMap<string, Value>, source: string): LabelRow[] {
  if (!(tag instanceof Map))
    throw new TagProblem(
      'refused',
      'a tag must be a mapping of fields (address, label, source, …)',
    );
  const own = (name: string) => text(tag.get(name), name);
  const field = (name: string) => text(tag.has(name) ? tag.get(name) : header.get(name), name);
  const address = own('address');
  if (address === undefined) {
    if (own('tx_hash') !== undefined)
      throw new TagProblem('skipped', 'a transaction tag (tx_hash): Tollgate labels addresses');
    throw new TagProblem('refused', 'address is missing');
  }
  const label = field('label');
  if (label === undefined) throw new TagProblem('refused', 'label is missing');
  const origin = field('source');
  if (origin === undefined)
    throw new TagProblem('refused', 'source is missing (in the tag or the header)');
  const code = field('network') ?? field('currency');
  if (code === undefined)
    throw new TagProblem(
      'refused',
      'network is missing (set network or currency, in the tag or the header)',
    );
  const name = `${label} (${origin})`;
  if (name.length > MAX_NAME_CHARS)
    throw new TagProblem(
      'refused',
      `label and source are longer than ${MAX_NAME_CHARS} characters together`,
    );

  const concepts = conceptsOf(tag, header);
  if (concepts.length === 0)
    throw new TagProblem('skipped', 'no category, abuse or concepts: nothing to flag it for');
  const categories = [
    ...new Set(concepts.map(categoryOfConcept).filter((c): c is LabelCategory => c !== null)),
  ];
  if (categories.length === 0)
    throw new TagProblem(
      'skipped',
      `category ${concepts.join(', ')}: not an AML risk category of Tollgate`,
    );

  const network = tagpackNetworkRule(code);
  if ('skip' in network) throw new TagProblem('skipped', network.skip);
  const rows: LabelRow[] = [];
  for (const target of network.targets) {
    const valid = validateForTarget(target, address);
    if (!valid.ok) continue;
    for (const category of categories)
      rows.push({ network: target, address: valid.address, category, source, name, list: null });
  }
  if (rows.length === 0)
    throw new TagProblem('refused', notForTargets(network.targets, address, `network ${code}`));
  return rows;
}

/** A text field, trimmed; undefined when absent or empty. A list or a mapping refuses the tag. */
function text(value: Value | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new TagProblem('refused', `${field} must be text, not a list or a mapping`);
  return value.trim() || undefined;
}

/**
 * The concepts of a tag: its category, abuse and concepts fields, each a text or a list, the
 * header's where the tag does not set the field.
 */
function conceptsOf(tag: ReadonlyMap<string, Value>, header: ReadonlyMap<string, Value>): string[] {
  const concepts = new Set<string>();
  for (const name of ['category', 'abuse', 'concepts']) {
    const value = tag.has(name) ? tag.get(name) : header.get(name);
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      if (typeof item !== 'string')
        throw new TagProblem('refused', `${name} must be text or a list of texts`);
      if (item.trim()) concepts.add(normaliseConcept(item));
    }
  }
  return [...concepts];
}
