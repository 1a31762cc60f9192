import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLabelFile, type ImportReport } from '../src/aml/labels/import.js';
import { loadLabelFile } from '../src/aml/labels/load.js';
import { findLabels } from '../src/aml/labels/lookup.js';
import { ofacAssetOfFile } from '../src/aml/labels/ofac-assets.js';
import { importShippedLabels } from '../src/aml/labels/shipped.js';
import { LABEL_CATEGORIES } from '../src/aml/labels/types.js';
import { validateAddress } from '../src/chains/address/index.js';
import { projectPath } from '../src/paths.js';
import { INTERRUPTED, IMPORT_LOCK_CLASS } from '../src/aml/labels/imports.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const OFAC_DIR = projectPath('config', 'labels', 'ofac');
const LIST_FILES = readdirSync(OFAC_DIR)
  .filter((f) => ofacAssetOfFile(f))
  .sort();

/**
 * What each shipped list must give, written out here rather than taken from ofac-assets.ts:
 * the networks its addresses may be stored under ('evm' = every EVM network), or 'skipped'.
 */
const EXPECTED: Record<string, readonly string[] | 'skipped'> = {
  XBT: ['bitcoin'],
  LTC: ['litecoin'],
  TRX: ['trx'],
  XRP: ['xrp'],
  ETH: ['evm'],
  ARB: ['evm'],
  BSC: ['evm'],
  USDC: ['evm'],
  USDT: ['evm', 'bitcoin', 'trx'],
  BCH: 'skipped',
  BSV: 'skipped',
  BTG: 'skipped',
  DASH: 'skipped',
  ETC: 'skipped',
  XMR: 'skipped',
  XVG: 'skipped',
  ZEC: 'skipped',
};
/** The one known fault of the shipped data: a Tron address in the XBT list. */
const KNOWN_REFUSED = ['XBT:355'];

function addressLines(file: string): { line: number; address: string }[] {
  return readFileSync(join(OFAC_DIR, file), 'utf8')
    .split('\n')
    .map((text, index) => ({ line: index + 1, address: text.trim() }))
    .filter(({ address }) => address !== '' && !address.startsWith('#'));
}

async function ofacRows(): Promise<Map<string, string[]>> {
  const rows = await db.sql<{ network: string; address: string; lists: string[] }[]>`
    select network, address, lists from labels where source = 'ofac' and category = 'sanctioned'`;
  return new Map(rows.map((r) => [`${r.network}|${r.address}`, r.lists]));
}

async function labelCount(): Promise<number> {
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from labels`;
  return row!.n;
}

describe('the shipped OFAC lists', () => {
  const reports = new Map<string, ImportReport>();
  beforeAll(async () => {
    const result = await importShippedLabels(db.sql);
    expect(result.failed).toEqual([]);
    for (const report of result.imported) reports.set(report.list!, report);
  });

  it('are all imported at the first start', () => {
    expect(LIST_FILES).toHaveLength(17);
    expect([...reports.keys()].sort()).toEqual(LIST_FILES.map((f) => ofacAssetOfFile(f)).sort());
  });

  it.each(LIST_FILES)(
    '%s: every address is stored under its network(s), or counted as skipped or refused with a reason',
    async (file) => {
      const asset = ofacAssetOfFile(file)!;
      const expected = EXPECTED[asset]!;
      const report = reports.get(asset)!;
      const lines = addressLines(file);
      expect(report.counts.read).toBe(lines.length);
      const stored = await ofacRows();
      const refused = new Map(report.refused_lines.map((r) => [r.line, r.reason]));
      if (expected === 'skipped') {
        expect(report.counts.skipped).toBe(lines.length);
        expect(report.skipped_reasons).toEqual([
          { reason: expect.stringContaining(`${asset} (`), lines: lines.length },
        ]);
        expect([...stored.values()].some((lists) => lists.includes(asset))).toBe(false);
        return;
      }
      expect(report.counts.skipped).toBe(0);
      for (const { line, address } of lines) {
        const places = expected.flatMap((network) => {
          const valid = validateAddress(network === 'evm' ? 'eth' : network, address);
          return valid.ok ? [`${network}|${valid.address}`] : [];
        });
        if (KNOWN_REFUSED.includes(`${asset}:${line}`)) {
          expect(places).toEqual([]);
          expect(refused.get(line), `${file}:${line}`).toMatch(/valid trx address/);
          continue;
        }
        expect(places, `${file}:${line} fits none of ${expected.join(', ')}`).not.toEqual([]);
        for (const place of places)
          expect(stored.get(place), `${file}:${line} stored as ${place}`).toContain(asset);
      }
      expect([...refused.keys()].map((line) => `${asset}:${line}`)).toEqual(
        KNOWN_REFUSED.filter((k) => k.startsWith(`${asset}:`)),
      );
    },
  );

  it('make an OFAC ETH address sanctioned on every EVM network, and only there', async () => {
    const address = '0x01e2919679362dfbc9ee1644ba9c6da6d6245bb1';
    for (const network of ['eth', 'bsc', 'polygon', 'avalanche', 'arb', 'op']) {
      expect(await findLabels(db.sql, network, address)).toEqual([
        {
          network: 'evm',
          address,
          category: 'sanctioned',
          source: 'ofac',
          name: 'OFAC SDN (ETH)',
          lists: ['ETH'],
        },
      ]);
    }
    expect(await findLabels(db.sql, 'vet', address)).toEqual([]);
  });

  it('name every list that carries an address', async () => {
    const [row] =
      await db.sql`select name, lists from labels where address = '0x983a81ca6fb1e441266d2fbcb7d8e530ac2e05a2'`;
    expect(row).toEqual({ name: 'OFAC SDN (ETH, USDC, USDT)', lists: ['ETH', 'USDC', 'USDT'] });
  });

  it('are not imported again at the next start when unchanged', async () => {
    const before = await labelCount();
    const again = await importShippedLabels(db.sql);
    expect(again).toEqual({ imported: [], unchanged_files: 17, failed: [] });
    expect(await labelCount()).toBe(before);
  });

  it('give the same rows when imported twice, reporting 0 inserted the second time', async () => {
    const before = await labelCount();
    for (const file of LIST_FILES) {
      const first = reports.get(ofacAssetOfFile(file)!)!.counts;
      const report = await storeLabelFile(db.sql, await loadLabelFile(join(OFAC_DIR, file)));
      expect(report.counts, file).toMatchObject({
        inserted: 0,
        updated: 0,
        removed: 0,
        unchanged: first.inserted + first.updated + first.unchanged,
      });
    }
    expect(await labelCount()).toBe(before);
  });
});

describe('a newer OFAC list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-ofac-'));
  const write = (asset: string, keep: (address: string) => boolean) => {
    const path = join(dir, `sanctioned_addresses_${asset}.txt`);
    writeFileSync(
      path,
      addressLines(`sanctioned_addresses_${asset}.txt`)
        .map((l) => l.address)
        .filter(keep)
        .join('\n') + '\n',
    );
    return path;
  };
  const ONLY_ETH = '0x01e2919679362dfbc9ee1644ba9c6da6d6245bb1';
  const ETH_USDC_USDT = '0x983a81ca6fb1e441266d2fbcb7d8e530ac2e05a2';

  it("without an address removes that address's OFAC label", async () => {
    const before = await labelCount();
    const report = await storeLabelFile(
      db.sql,
      await loadLabelFile(write('ETH', (a) => a.toLowerCase() !== ONLY_ETH)),
    );
    expect(report.counts).toMatchObject({ inserted: 0, removed: 1 });
    expect(await findLabels(db.sql, 'eth', ONLY_ETH)).toEqual([]);
    expect(await labelCount()).toBe(before - 1);
  });

  it('without an address another list still carries keeps the label for that list', async () => {
    const report = await storeLabelFile(
      db.sql,
      await loadLabelFile(write('USDC', (a) => a.toLowerCase() !== ETH_USDC_USDT)),
    );
    expect(report.counts).toMatchObject({ removed: 1 });
    expect(await findLabels(db.sql, 'polygon', ETH_USDC_USDT)).toEqual([
      expect.objectContaining({ name: 'OFAC SDN (ETH, USDT)', lists: ['ETH', 'USDT'] }),
    ]);
  });

  it('listing the address again brings the label back', async () => {
    const report = await storeLabelFile(
      db.sql,
      await loadLabelFile(join(OFAC_DIR, 'sanctioned_addresses_ETH.txt')),
    );
    expect(report.counts).toMatchObject({ inserted: 1, removed: 0 });
    expect(await findLabels(db.sql, 'arb', ONLY_ETH)).toHaveLength(1);
  });

  it('without a single valid address (a broken download) keeps the stored labels and says so', async () => {
    const path = join(dir, 'sanctioned_addresses_TRX.txt');
    writeFileSync(path, '<html>rate limited</html>\n');
    const before = await labelCount();
    const report = await storeLabelFile(db.sql, await loadLabelFile(path));
    expect(report.counts).toMatchObject({ read: 1, refused: 1, removed: 0 });
    expect(report.note).toMatch(/labels of list TRX were kept/);
    expect(await labelCount()).toBe(before);
  });
});

describe('the start-up import of a label directory', () => {
  it('imports a changed file again, and reports a bad file while importing the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-labels-dir-'));
    writeFileSync(
      join(dir, 'sanctioned_addresses_XRP.txt'),
      'rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66\n',
    );
    writeFileSync(join(dir, 'broken.csv'), 'addr,net\n');
    writeFileSync(join(dir, 'README.md'), 'not a label file\n');
    const first = await importShippedLabels(db.sql, dir);
    expect(first.imported.map((r) => r.list)).toEqual(['XRP']);
    expect(first.failed).toEqual([
      {
        file: expect.stringContaining('broken.csv'),
        error: expect.stringContaining('unknown column "addr"'),
      },
    ]);
    expect((await importShippedLabels(db.sql, dir)).unchanged_files).toBe(1);
    writeFileSync(
      join(dir, 'sanctioned_addresses_XRP.txt'),
      '# newer list\nrnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66\n',
    );
    const changed = await importShippedLabels(db.sql, dir);
    expect(changed.imported.map((r) => [r.list, r.counts.unchanged])).toEqual([['XRP', 1]]);
  });
});

describe('label categories', () => {
  it('are the same in the database and in the code', async () => {
    const rows = await db.sql<
      { category: string }[]
    >`select category from label_categories order by category`;
    // Plus the one only Tollgate writes: the derived label of a labelled contract's deployer
    // (sql/0028); label files cannot name it (LABEL_CATEGORIES does not hold it).
    expect(rows.map((r) => r.category)).toEqual(
      [...LABEL_CATEGORIES, 'number_of_malicious_contracts_created'].sort(),
    );
    expect(LABEL_CATEGORIES).not.toContain('number_of_malicious_contracts_created');
    await expect(
      db.sql`insert into labels (network, address, category, source) values ('eth', '0x00', 'new_wallet', 'x')`,
    ).rejects.toThrow(/foreign key/);
  });
});

describe('CSV label files', () => {
  const CSV = projectPath('test', 'fixtures', 'labels', 'intel.csv');
  const MIXER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
  const PHISH = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
  const TRON = 'TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre';

  it('store quoted fields and refuse bad rows with their line numbers', async () => {
    const report = await storeLabelFile(db.sql, await loadLabelFile(CSV, { source: 'desk' }));
    expect(report.counts).toEqual({
      read: 9,
      inserted: 4,
      updated: 0,
      unchanged: 0,
      removed: 0,
      duplicates: 0,
      refused: 5,
      skipped: 0,
    });
    expect(report.refused_lines).toEqual([
      { line: 6, reason: expect.stringContaining('unknown category "unknown_tag"') },
      { line: 7, reason: expect.stringContaining('EIP-55 checksum mismatch') },
      { line: 8, reason: expect.stringContaining('not a valid eth address') },
      { line: 9, reason: expect.stringContaining('unknown network "tron"') },
      { line: 11, reason: expect.stringContaining('double quote') },
    ]);
    expect(await findLabels(db.sql, 'bsc', PHISH)).toEqual([
      {
        network: 'bsc',
        address: PHISH,
        category: 'phishing_activities',
        source: 'intel',
        name: 'Phishing kit\n(two lines)',
        lists: [],
      },
    ]);
    expect(await findLabels(db.sql, 'eth', PHISH)).toEqual([]); // a bsc row covers bsc only
    expect(await findLabels(db.sql, 'op', MIXER)).toEqual([
      expect.objectContaining({ network: 'evm', category: 'mixer', name: 'Mixer, Inc. "Tumbler"' }),
    ]);
    expect(await findLabels(db.sql, 'trx', TRON)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'desk', category: 'blackmail_activities' }),
        expect.objectContaining({ source: 'ofac', category: 'sanctioned' }),
      ]),
    );
    const [record] =
      await db.sql`select status, rows_read, inserted, refused, problems from label_imports where id = ${report.import_id}`;
    expect(record).toMatchObject({ status: 'succeeded', rows_read: 9, inserted: 4, refused: 5 });
    expect(record!.problems.refused.map((p: { line: number }) => p.line)).toEqual([6, 7, 8, 9, 11]);
  });

  it('are idempotent, and update a changed name', async () => {
    const again = await storeLabelFile(db.sql, await loadLabelFile(CSV, { source: 'desk' }));
    expect(again.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 4 });
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-csv-'));
    const renamed = join(dir, 'renamed.csv');
    writeFileSync(renamed, readFileSync(CSV, 'utf8').replace('Market wallet', 'Market hot wallet'));
    const report = await storeLabelFile(db.sql, await loadLabelFile(renamed, { source: 'desk' }));
    expect(report.counts).toMatchObject({ inserted: 0, updated: 1, unchanged: 3 });
    expect(await findLabels(db.sql, 'bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual([
      expect.objectContaining({ name: 'Market hot wallet' }),
    ]);
  });

  it('with --replace remove the labels of their sources that the file no longer has, and nothing of other sources', async () => {
    const ofacBefore = (await ofacRows()).size;
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-csv-'));
    const smaller = join(dir, 'smaller.csv');
    writeFileSync(
      smaller,
      `address,network,category,name,source\n${MIXER},evm,mixer,"Mixer, Inc. ""Tumbler""",intel\n`,
    );
    const report = await storeLabelFile(db.sql, await loadLabelFile(smaller), { replace: true });
    expect(report.counts).toMatchObject({ inserted: 0, unchanged: 1, removed: 2 });
    const intel = await db.sql`select address from labels where source = 'intel'`;
    expect(intel.map((r) => r.address)).toEqual([MIXER]);
    expect(await db.sql`select 1 from labels where source = 'desk'`).toHaveLength(1);
    expect((await ofacRows()).size).toBe(ofacBefore);
  });
});

/** Runs the real CLI (`tollgate …`) from source in a child process; resolves when it exits. */
async function tollgate(
  args: string[],
): Promise<{ code: number | null; out: string; err: string; last: () => Record<string, unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: db.url,
      TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-cli-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out, err, last: () => JSON.parse(out.trim().split('\n').pop()!) };
}

describe('tollgate labels CLI', () => {
  it('imports an OFAC list, printing refused lines and then the counts as JSON; again, 0 inserted', async () => {
    const run = await tollgate([
      'labels',
      'import',
      'config/labels/ofac/sanctioned_addresses_XBT.txt',
    ]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/refused line 355: not a valid bitcoin address.*valid trx address/);
    expect(run.last()).toMatchObject({
      format: 'ofac',
      source: 'ofac',
      list: 'XBT',
      read: 435,
      inserted: 0,
      unchanged: 434,
      refused: 1,
      skipped: 0,
    });
    const skipped = await tollgate([
      'labels',
      'import',
      'config/labels/ofac/sanctioned_addresses_BCH.txt',
      '--source',
      'ofac-mirror',
    ]);
    expect(skipped.code, skipped.err).toBe(0);
    expect(skipped.out).toContain(
      'skipped 7 line(s): BCH (Bitcoin Cash) has no network in Tollgate',
    );
    expect(skipped.last()).toMatchObject({
      source: 'ofac-mirror',
      read: 7,
      inserted: 0,
      skipped: 7,
    });
  });

  it('imports a CSV file under --format csv whatever its name, with --source for rows without one', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tollgate-csv-')), 'intel.txt');
    copyFileSync(projectPath('test', 'fixtures', 'labels', 'intel.csv'), path);
    const run = await tollgate([
      'labels',
      'import',
      path,
      '--format',
      'csv',
      '--source',
      'cli-desk',
    ]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('refused line 6: unknown category "unknown_tag"');
    const counts = run.last();
    expect(counts).toMatchObject({ format: 'csv', read: 9, refused: 5 });
    expect(Number(counts.inserted) + Number(counts.updated) + Number(counts.unchanged)).toBe(4);
    expect(await findLabels(db.sql, 'trx', 'TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre')).toEqual(
      expect.arrayContaining([expect.objectContaining({ source: 'cli-desk' })]),
    );
  });

  it('exits non-zero with a clear message for an unreadable file, an unknown format or a bad header', async () => {
    const missing = await tollgate(['labels', 'import', '/nonexistent/labels.csv']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('cannot read /nonexistent/labels.csv: ENOENT');
    // Whatever its name: a missing file is missing, not of an unknown format.
    const missingNoFormat = await tollgate(['labels', 'import', '/nonexistent']);
    expect(missingNoFormat.err).toContain('cannot read /nonexistent: ENOENT');
    const unknown = await tollgate(['labels', 'import', 'README.md']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('cannot tell the format of README.md');
    const badFormat = await tollgate(['labels', 'import', 'README.md', '--format', 'xml']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.err).toContain('unknown format "xml"');
    const header = await tollgate(['labels', 'import', 'README.md', '--format', 'csv']);
    expect(header.code).toBe(1);
    expect(header.err).toContain('in the header');
    const noFile = await tollgate(['labels', 'import']);
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain('needs exactly one FILE');
    // A file past the size a label file may be (a sparse one: nothing is written to disk); one of
    // 600 MB was called "not UTF-8".
    const bigDir = mkdtempSync(join(tmpdir(), 'labels-big-'));
    const big = join(bigDir, 'big.csv');
    writeFileSync(big, '');
    truncateSync(big, 300 * 1024 * 1024);
    const tooBig = await tollgate(['labels', 'import', big]);
    expect(tooBig.code).toBe(1);
    expect(tooBig.err).toContain(
      `${big} is 300 MiB, larger than the 256 MiB a label file may be: import it in parts`,
    );
  });

  it('stats: counts per source and category, and the last import', async () => {
    const [ofac] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from labels where source = 'ofac'`;
    const json = await tollgate(['labels', 'stats', '--json']);
    expect(json.code, json.err).toBe(0);
    const stats = json.last() as {
      labels: unknown[];
      total: number;
      last_import: Record<string, unknown>;
    };
    expect(stats.labels).toContainEqual({
      source: 'ofac',
      category: 'sanctioned',
      labels: ofac!.n,
    });
    expect(stats.labels).toContainEqual({ source: 'intel', category: 'mixer', labels: 1 });
    expect(stats.total).toBe(await labelCount());
    expect(stats.last_import).toMatchObject({
      format: 'csv',
      status: 'succeeded',
      rows_read: 9,
      refused: 5,
    });
    const table = await tollgate(['labels', 'stats']);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toMatch(new RegExp(`ofac\\s+sanctioned\\s+${ofac!.n}\\n`));
    expect(table.out).toMatch(/Last import: .*intel\.txt \(csv, source cli-desk\) succeeded/);
  });
});

describe('an import whose process is killed', () => {
  it('shows as running while its process lives (waiting for its turn), then as failed, interrupted, with nothing stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-killed-'));
    const file = join(dir, 'killed.csv');
    writeFileSync(
      file,
      'address,network,category,name,source\n0x90F79bf6EB2c4f870365E785982E1f101E93b906,evm,mixer,Killed,killed-import\n',
    );
    // The earlier tests' imports an hour older: this one stays the last import when it is
    // made a minute old below.
    await db.sql`update label_imports set started_at = started_at - interval '1 hour'`;
    // Another import holds the turn: this one starts, takes its own lock and waits.
    const turn = await db.sql.reserve();
    await turn`select pg_advisory_lock(hashtext('tollgate_labels_import'))`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'labels', 'import', file],
      {
        env: {
          PATH: process.env.PATH!,
          HOME: process.env.HOME ?? '/tmp',
          DATABASE_URL: db.url,
          TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-cli-')),
        },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const ownLock = () =>
        db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks
          where locktype = 'advisory' and objsubid = 2 and classid = ${IMPORT_LOCK_CLASS}::bigint::oid`;
      await eventually(
        async () => (await ownLock())[0]!.n,
        (n) => n === 1,
        60_000,
      );
      // As if it had been waiting for a minute: alive, so still running.
      await db.sql`update label_imports set started_at = now() - interval '1 minute'
        where file = ${file} and status = 'running'`;
      const waiting = await tollgate(['labels', 'stats', '--json']);
      expect(waiting.last().last_import).toMatchObject({ file, status: 'running', error: null });

      child.kill('SIGKILL');
      await exited;
    } finally {
      await turn`select pg_advisory_unlock(hashtext('tollgate_labels_import'))`;
      turn.release();
    }
    // Its session ends once it wakes to a closed socket; its transaction rolls back.
    const stats = await eventually(
      async () =>
        (await tollgate(['labels', 'stats', '--json'])).last().last_import as Record<
          string,
          unknown
        >,
      (last) => last.status !== 'running',
      60_000,
    );
    expect(stats).toMatchObject({ file, status: 'failed', error: INTERRUPTED });
    expect(await db.sql`select 1 from labels where source = 'killed-import'`).toHaveLength(0);
    const table = await tollgate(['labels', 'stats']);
    expect(table.out).toContain(`killed.csv (csv, source killed-import) failed`);
    expect(table.out).toContain(INTERRUPTED);
  }, 180_000);
});

describe('GraphSense TagPacks through the CLI', () => {
  const PACK = 'test/fixtures/labels/graphsense.yaml';
  const SCAM = '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc';
  const TUMBLER = '0x976ea74026e726554db657fa54763abd0c3a0aa9';
  const LOCKER = '3E6ZCKRrsdPc35chA9Eftp1h3DLW18NFNV';
  const BROKER = 'TFdTr9C3BqQrzKBXqSxJfAZFTh8UwBAfSg';

  const sourceRows = (source: string) =>
    db.sql<{ network: string; address: string; category: string; name: string }[]>`
      select network, address, category, name from labels where source = ${source}
      order by network, address collate "C", category`;

  it('imports a .yaml file as a TagPack: header defaults, overrides, refused and skipped tags with their lines', async () => {
    const run = await tollgate(['labels', 'import', PACK]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('refused line 35: not a valid evm address: EIP-55 checksum mismatch');
    expect(run.out).toContain(
      'skipped 1 line(s): category exchange: not an AML risk category of Tollgate',
    );
    expect(run.out).toContain('skipped 1 line(s): ZEC (Zcash) has no network in Tollgate');
    expect(run.last()).toMatchObject({
      file: PACK,
      format: 'tagpack',
      source: 'graphsense',
      list: null,
      read: 8,
      inserted: 5,
      updated: 0,
      unchanged: 0,
      removed: 0,
      duplicates: 1,
      refused: 1,
      skipped: 2,
    });
    expect([...(await sourceRows('graphsense'))]).toEqual([
      {
        network: 'bitcoin',
        address: LOCKER,
        category: 'cybercrime',
        name: 'SomeLocker (https://example.org/scam-report)',
      },
      {
        network: 'bitcoin',
        address: LOCKER,
        category: 'financial_crime',
        name: 'SomeLocker (https://example.org/scam-report)',
      },
      {
        network: 'evm',
        address: TUMBLER,
        category: 'mixer',
        name: 'Tumbler (https://example.org/mixer)',
      },
      {
        network: 'evm',
        address: SCAM,
        category: 'financial_crime',
        name: 'Fake exchange (https://example.org/scam-report)',
      },
      {
        network: 'trx',
        address: BROKER,
        category: 'sanctioned',
        name: 'Sanctioned broker (https://example.org/sanctions)',
      },
    ]);
    expect(await findLabels(db.sql, 'polygon', TUMBLER)).toEqual([
      expect.objectContaining({ network: 'evm', category: 'mixer', source: 'graphsense' }),
    ]);
    const [record] = await db.sql`
      select format, source, status, rows_read, inserted, refused, skipped, problems
      from label_imports where file = ${PACK} order by id desc limit 1`;
    expect(record).toMatchObject({
      format: 'tagpack',
      source: 'graphsense',
      status: 'succeeded',
      rows_read: 8,
      inserted: 5,
      refused: 1,
      skipped: 2,
    });
    expect(record!.problems.refused).toEqual([{ line: 35, reason: expect.any(String) }]);
  });

  it('changes nothing when the same TagPack is imported again', async () => {
    const run = await tollgate(['labels', 'import', PACK]);
    expect(run.code, run.err).toBe(0);
    expect(run.last()).toMatchObject({ read: 8, inserted: 0, updated: 0, unchanged: 5 });
  });

  it('stats: the TagPack labels per category under their source, and the import', async () => {
    const json = await tollgate(['labels', 'stats', '--json']);
    expect(json.code, json.err).toBe(0);
    const stats = json.last() as {
      labels: { source: string; category: string; labels: number }[];
      last_import: Record<string, unknown>;
    };
    expect(stats.labels.filter((row) => row.source === 'graphsense')).toEqual([
      { source: 'graphsense', category: 'cybercrime', labels: 1 },
      { source: 'graphsense', category: 'financial_crime', labels: 2 },
      { source: 'graphsense', category: 'mixer', labels: 1 },
      { source: 'graphsense', category: 'sanctioned', labels: 1 },
    ]);
    expect(stats.last_import).toMatchObject({ format: 'tagpack', source: 'graphsense' });
    const table = await tollgate(['labels', 'stats']);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toMatch(/graphsense\s+financial_crime\s+2\n/);
    expect(table.out).toMatch(/Last import: .*graphsense\.yaml \(tagpack, source graphsense\)/);
  });

  it('--format tagpack --source NAME --replace: the file becomes the whole set of that source only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-tagpack-'));
    const copy = join(dir, 'pack.txt');
    copyFileSync(projectPath(PACK), copy);
    const first = await tollgate([
      'labels',
      'import',
      copy,
      '--format',
      'tagpack',
      '--source',
      'gs-mirror',
    ]);
    expect(first.code, first.err).toBe(0);
    expect(first.last()).toMatchObject({ format: 'tagpack', source: 'gs-mirror', inserted: 5 });
    const smaller = join(dir, 'smaller.yml');
    writeFileSync(
      smaller,
      [
        'title: Smaller',
        'creator: Tollgate tests',
        'tags:',
        `  - address: ${TUMBLER}`,
        '    label: Tumbler',
        '    source: https://example.org/mixer',
        '    network: ETH',
        '    category: mixing_service',
        '',
      ].join('\n'),
    );
    const replaced = await tollgate([
      'labels',
      'import',
      smaller,
      '--source',
      'gs-mirror',
      '--replace',
    ]);
    expect(replaced.code, replaced.err).toBe(0);
    expect(replaced.last()).toMatchObject({ read: 1, unchanged: 1, removed: 4 });
    expect((await sourceRows('gs-mirror')).map((r) => [r.address, r.category])).toEqual([
      [TUMBLER, 'mixer'],
    ]);
    expect(await sourceRows('graphsense')).toHaveLength(5);
  });

  it('refuses a file that is not valid YAML, naming the line, and stores nothing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tollgate-tagpack-')), 'broken.yaml');
    writeFileSync(path, 'title: Broken\ntags:\n  - address: [unclosed\n  label: x\n');
    const before = await labelCount();
    const run = await tollgate(['labels', 'import', path]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/not valid YAML: line \d+, column \d+/);
    expect(await labelCount()).toBe(before);
  });
});
