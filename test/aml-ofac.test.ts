import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeAddress } from '../src/aml/analyze.js';
import { loadLabelFile } from '../src/aml/labels/load.js';
import { ofacAssetOfFile } from '../src/aml/labels/ofac-assets.js';
import { importShippedLabels } from '../src/aml/labels/shipped.js';
import { EVM_SCOPE } from '../src/aml/labels/types.js';
import { loadConfig } from '../src/config/index.js';
import { EVM_NETWORKS } from '../src/config/networks.js';
import { projectPath } from '../src/paths.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/** Every address of every shipped OFAC list is sanctioned, with a high score, on its networks. */

let db: TestDatabase;
const config = loadConfig({}).aml;
const OFAC_DIR = projectPath('config', 'labels', 'ofac');
const LISTS = readdirSync(OFAC_DIR)
  .filter((f) => ofacAssetOfFile(f))
  .sort();

beforeAll(async () => {
  db = await freshDatabase();
  const result = await importShippedLabels(db.sql);
  expect(result.failed).toEqual([]);
});
afterAll(async () => {
  await db?.drop();
});

describe('shipped OFAC lists', () => {
  it('are all here', () => {
    expect(LISTS.length).toBeGreaterThanOrEqual(17);
  });

  it.each(LISTS)('%s: every address is sanctioned with score ≥ high', async (file) => {
    const { parsed } = await loadLabelFile(join(OFAC_DIR, file));
    // Each label row, on each network it covers (a family-wide 'evm' row: all six EVM networks).
    const cases = parsed.rows.flatMap((r) =>
      (r.network === EVM_SCOPE ? EVM_NETWORKS : [r.network]).map((network) => ({
        network,
        address: r.address,
      })),
    );
    const failures: string[] = [];
    for (const { network, address } of cases) {
      const { score, tags } = await analyzeAddress(db.sql, config, {
        network,
        address,
        indexed: false,
      });
      if (!tags.sanctioned || score < config.thresholds.high)
        failures.push(`${network}:${address} sanctioned=${tags.sanctioned} score=${score}`);
    }
    expect(failures).toEqual([]);
    // Lists of other chains (BCH, XMR, …) have no rows; the others have at least one address.
    if (parsed.skipped.length === 0) expect(cases.length).toBeGreaterThan(0);
  });
});
