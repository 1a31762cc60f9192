import { join, resolve } from 'node:path';
import type { Config } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { withDatabase } from '../db/open.js';
import { SEALED_COLUMNS } from '../sealed-columns.js';
import {
  countByKey,
  countRetiredTokens,
  decodeDataKey,
  loadKeyring,
  type RecordedTokens,
  recordTokensOf,
  refuseMissingKeys,
  resealBatch,
  type Keyring,
} from '../travelrule/index.js';
import { command, parseOptions } from './command.js';

export const DATA_KEY_USAGE = `Usage:
  tollgate data-key rotate [--batch N] [--json]
      re-seal every sealed row (Travel Rule payloads, TOTP secrets, casework notes) under the
      current data key (TOLLGATE_DATA_KEY), opening them with the old ones (TOLLGATE_DATA_KEYS_OLD);
      N rows per statement (default 500, 1 to 10000). Prints "<table>: done/total" as it goes,
      then the status below; --json: one JSON summary as the last line instead. Safe to stop at
      any point (a row is re-sealed wholly or not at all) and to run again (rows under the
      current key are skipped); runs beside the appliance (a row another writer changed
      meanwhile is left as it is, for a rerun). Then, for each old key, records the hashes of
      the tokens it made (callback URLs of transfers under way, issued Travel Addresses) so
      that they keep working once the key is removed
  tollgate data-key status [--json]
      per data key: where it is configured, how many rows each table still holds under it and
      how many of its tokens are recorded; an old key with no rows and its tokens recorded can
      be removed. Exit 1 when a row needs a key that is not configured`;

const cmd = command('data-key', DATA_KEY_USAGE);

const DEFAULT_BATCH_ROWS = 500;
const MAX_BATCH_ROWS = 10_000;

interface KeyStatus {
  key_id: string;
  /** Where the key is configured, or null when it is not (its rows cannot be opened). */
  source: string | null;
  current: boolean;
  rows: Record<string, number>;
  total_rows: number;
  /** Its tokens recorded by a rotate (they work after the key is removed), and when. */
  tokens_recorded: number;
  tokens_recorded_at: string | null;
}

/** `tollgate data-key rotate|status`: re-seal rows under the current data key; rows per key. */
export async function dataKeyCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(async () => {
    const [sub, ...rest] = args;
    if (sub !== 'rotate' && sub !== 'status')
      return cmd.usage(sub ? `unknown data-key command: ${sub}` : undefined);
    const { values } = parseOptions({
      args: rest,
      options: {
        json: { type: 'boolean' },
        ...(sub === 'rotate' ? { batch: { type: 'string' as const } } : {}),
      },
    });
    const batch = values.batch === undefined ? DEFAULT_BATCH_ROWS : Number(values.batch);
    if (!Number.isInteger(batch) || batch < 1 || batch > MAX_BATCH_ROWS)
      return cmd.usage(`--batch: a whole number of rows, 1 to ${MAX_BATCH_ROWS}`);
    const keyring = loadKeyring({
      dataKey: config.data_key,
      dataKeysOld: config.data_keys_old,
      dataDir: config.data_dir,
      // A key made now would open nothing stored, and status would report on the wrong place.
      create: false,
    });
    await withDatabase(config, async (sql) => {
      if (sub === 'rotate') {
        await refuseMissingKeys(sql, keyring, SEALED_COLUMNS);
        const tables = await rotate(sql, keyring, batch, !values.json);
        const tokens: RecordedTokens[] = [];
        for (const key of keyring.byId.values()) {
          if (key.id === keyring.current.id) continue;
          const t = await recordTokensOf(sql, key, batch);
          tokens.push(t);
          if (!values.json)
            process.stdout.write(
              `tokens of key ${key.id}: ${t.callbacks} callback URLs, ${t.travel_addresses} Travel Addresses newly recorded\n`,
            );
        }
        const keys = await keyStatus(sql, keyring, config);
        if (values.json)
          process.stdout.write(
            JSON.stringify({ current_key_id: keyring.current.id, tables, tokens, keys }) + '\n',
          );
        else process.stdout.write(formatStatus(keys));
        return;
      }
      const keys = await keyStatus(sql, keyring, config);
      process.stdout.write(
        values.json
          ? JSON.stringify({ current_key_id: keyring.current.id, keys }) + '\n'
          : formatStatus(keys),
      );
      await refuseMissingKeys(sql, keyring, SEALED_COLUMNS);
    });
  });
}

interface TableResult {
  table: string;
  /** Rows not under the current key when the table's turn came. */
  total: number;
  resealed: number;
  /** Rows another writer changed between read and write: left as they are. */
  changed: number;
  /** Rows still not under the current key at the end (a rerun takes them). */
  remaining: number;
}

async function rotate(
  sql: Sql,
  keyring: Keyring,
  batch: number,
  progress: boolean,
): Promise<TableResult[]> {
  const results: TableResult[] = [];
  for (const c of SEALED_COLUMNS) {
    const stale = (counts: { keyId: string; rows: number }[]) =>
      counts.filter((k) => k.keyId !== keyring.current.id).reduce((n, k) => n + k.rows, 0);
    const total = stale(await countByKey(sql, c));
    const say = (text: string) => progress && process.stdout.write(`${c.table}: ${text}\n`);
    let done = 0;
    let resealed = 0;
    let changed = 0;
    say(`0/${total}`);
    // One pass in id order: every row is read once, so rows another writer keeps sealing with
    // an old key (an appliance not restarted yet) cannot keep the command going.
    for (let after: string | undefined; ; ) {
      const b = await resealBatch(sql, keyring, c, after, batch);
      if (b.lastId === undefined) break;
      after = b.lastId;
      done += b.read;
      resealed += b.resealed;
      changed += b.changed;
      say(`${done}/${Math.max(total, done)}`);
    }
    const remaining = stale(await countByKey(sql, c));
    say(`done: ${resealed} re-sealed, ${changed} changed meanwhile, ${remaining} left`);
    results.push({ table: c.table, total, resealed, changed, remaining });
  }
  return results;
}

/** Where each key of the keyring comes from, by id: the names an operator edits. */
function keySources(keyring: Keyring, config: Config): Map<string, string> {
  const sources = new Map<string, string>();
  const file = join(resolve(config.data_dir), 'data.key');
  for (const [i, k] of config.data_keys_old.entries())
    sources.set(decodeDataKey(k, 'TOLLGATE_DATA_KEYS_OLD').id, `TOLLGATE_DATA_KEYS_OLD[${i + 1}]`);
  for (const id of keyring.byId.keys()) if (!sources.has(id)) sources.set(id, file);
  sources.set(keyring.current.id, config.data_key ? 'TOLLGATE_DATA_KEY' : file);
  return sources;
}

async function keyStatus(sql: Sql, keyring: Keyring, config: Config): Promise<KeyStatus[]> {
  const sources = keySources(keyring, config);
  const keys = new Map<string, KeyStatus>();
  const entry = (id: string) => {
    let k = keys.get(id);
    if (!k) {
      k = {
        key_id: id,
        source: sources.get(id) ?? null,
        current: id === keyring.current.id,
        rows: Object.fromEntries(SEALED_COLUMNS.map((c) => [c.table, 0])),
        total_rows: 0,
        tokens_recorded: 0,
        tokens_recorded_at: null,
      };
      keys.set(id, k);
    }
    return k;
  };
  entry(keyring.current.id);
  for (const id of keyring.byId.keys()) entry(id);
  for (const c of SEALED_COLUMNS)
    for (const { keyId, rows } of await countByKey(sql, c)) {
      const k = entry(keyId);
      k.rows[c.table] = rows;
      k.total_rows += rows;
    }
  for (const [keyId, r] of await countRetiredTokens(sql)) {
    const k = keys.get(keyId);
    if (!k) continue;
    k.tokens_recorded = r.tokens;
    k.tokens_recorded_at = r.recorded_at.toISOString();
  }
  return [...keys.values()];
}

function formatStatus(keys: KeyStatus[]): string {
  const lines = keys.map((k) => {
    const where = k.source ?? 'NOT CONFIGURED';
    const rows = Object.entries(k.rows)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    const verdict = k.current
      ? 'current: seals new rows'
      : k.source === null
        ? 'needed: add it to TOLLGATE_DATA_KEYS_OLD'
        : k.total_rows === 0 && k.tokens_recorded_at !== null
          ? 'no rows left, tokens recorded: can be removed'
          : 'still needed: run tollgate data-key rotate';
    const tokens = k.current ? '' : `, tokens recorded ${k.tokens_recorded}`;
    return `key ${k.key_id}  ${where}  ${rows}${tokens}  (${verdict})`;
  });
  return lines.join('\n') + '\n';
}
