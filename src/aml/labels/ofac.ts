import { ofacAssetRule } from './ofac-assets.js';
import { notForTargets, validateForTarget } from './targets.js';
import { addLineRows, emptyParsed, type LabelRow, type ParsedLabels } from './types.js';

/** The label name of an OFAC list row: the prefix and the lists that carry it, "OFAC SDN (ETH, USDT)". */
export const OFAC_NAME_PREFIX = 'OFAC SDN';

export function ofacListName(lists: readonly string[]): string {
  return `${OFAC_NAME_PREFIX} (${lists.join(', ')})`;
}

/**
 * Parses one OFAC list (one address per line, the file for one asset) into `sanctioned` labels.
 * Blank lines and `#` comments are ignored; surrounding whitespace of a line is trimmed. Every
 * address is validated for each network the asset applies to (ofac-assets.ts) and stored in
 * that network's form; a line that fits none is refused with its line number, a line of an
 * asset Tollgate has no network for is skipped with the reason. No line is dropped silently.
 */
export function parseOfac(text: string, asset: string, source: string): ParsedLabels {
  const rule = ofacAssetRule(asset);
  const parsed = emptyParsed();
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const input = lines[index]!.trim();
    if (input === '' || input.startsWith('#')) continue;
    const line = index + 1;
    parsed.read++;
    if ('skip' in rule) {
      parsed.skipped.push({ line, reason: rule.skip });
      continue;
    }
    const rows: LabelRow[] = [];
    for (const target of rule.targets) {
      const result = validateForTarget(target, input);
      if (result.ok)
        rows.push({
          network: target,
          address: result.address,
          category: 'sanctioned',
          source,
          name: ofacListName([asset]),
          list: asset,
        });
    }
    if (rows.length === 0)
      parsed.refused.push({
        line,
        reason: notForTargets(rule.targets, input, `the ${asset} list`),
      });
    else addLineRows(parsed, seen, rows);
  }
  return parsed;
}
