import type { Sql } from '../db/index.js';
import {
  associatedData,
  DecryptionError,
  openBytes,
  sealBytes,
  type Keyring,
  type Sealed,
} from './crypto.js';

/**
 * Re-sealing under the current data key (`tollgate data-key rotate`), for every column sealed
 * with the keyring: the IVMS101 payloads here, operators' TOTP secrets (src/operators/mfa.ts).
 * Each owner describes its column (SealedColumn); the statements below are the same for all.
 *
 * A batch is one UPDATE, so a kill leaves each row either as it was or wholly re-sealed. A row
 * is written only if it still holds the ciphertext and key id that were read (compare-and-set),
 * so a writer that changed it meanwhile is never overwritten; the row is left for a rerun. A row
 * under the current key is never touched, which makes a rerun continue where the last stopped.
 */

/** A column sealed with sealBytes: where the three parts are, and the associated data of a row. */
export interface SealedColumn {
  table: string;
  /** The primary key, and its SQL type (the batch cursor compares in it). */
  id: string;
  idType: 'uuid' | 'bigint';
  ciphertext: string;
  nonce: string;
  keyId: string;
  context(rowId: string): string;
  /** Names a row in an error, never its content. */
  what(rowId: string): string;
}

export interface KeyCount {
  keyId: string;
  rows: number;
}

export interface ResealBatch {
  /** The last id read (the cursor of the next batch); undefined when nothing was left. */
  lastId: string | undefined;
  read: number;
  resealed: number;
  /** Rows changed by another writer between the read and the update: left as they are. */
  changed: number;
}

/** How many rows of the column each data key sealed. */
export async function countByKey(sql: Sql, c: SealedColumn): Promise<KeyCount[]> {
  const rows = await sql.unsafe<{ key_id: string; rows: string }[]>(
    `select ${c.keyId} as key_id, count(*)::text as rows from ${c.table} group by 1 order by 1`,
  );
  return rows.map((r) => ({ keyId: r.key_id, rows: Number(r.rows) }));
}

/** Rows not under the current key, in id order after `afterId`. */
async function readStale(
  sql: Sql,
  c: SealedColumn,
  currentKeyId: string,
  afterId: string | undefined,
  limit: number,
): Promise<{ id: string; ciphertext: Buffer; nonce: Buffer; key_id: string }[]> {
  const after = afterId === undefined ? '' : `and ${c.id} > $3::${c.idType}`;
  return sql.unsafe(
    `select ${c.id}::text as id, ${c.ciphertext} as ciphertext, ${c.nonce} as nonce, ${c.keyId} as key_id
     from ${c.table} where ${c.keyId} <> $1 ${after} order by ${c.id} limit $2`,
    afterId === undefined ? [currentKeyId, limit] : [currentKeyId, limit, afterId],
  );
}

/**
 * Re-seals up to `limit` rows after `afterId` that are not under the current key. A row that
 * cannot be opened (a key not configured, altered bytes) stops it with a DecryptionError, before
 * anything of the batch is written.
 */
export async function resealBatch(
  sql: Sql,
  keyring: Keyring,
  c: SealedColumn,
  afterId: string | undefined,
  limit: number,
): Promise<ResealBatch> {
  const rows = await readStale(sql, c, keyring.current.id, afterId, limit);
  if (rows.length === 0) return { lastId: undefined, read: 0, resealed: 0, changed: 0 };
  const fresh: Sealed[] = rows.map((r) => {
    const sealed = { ciphertext: r.ciphertext, nonce: r.nonce, keyId: r.key_id };
    if (!keyring.byId.has(r.key_id)) throw missingKey(c, r.key_id);
    return sealBytes(
      keyring,
      c.context(r.id),
      openBytes(keyring, c.context(r.id), sealed, c.what(r.id)),
    );
  });
  const hex = (b: Buffer) => b.toString('hex');
  const updated = await sql.unsafe(
    `update ${c.table} as t
     set ${c.ciphertext} = decode(u.ct, 'hex'), ${c.nonce} = decode(u.nonce, 'hex'), ${c.keyId} = u.key_id
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       as u(id, old_ct, old_key_id, ct, nonce, key_id)
     where t.${c.id} = u.id::${c.idType} and t.${c.keyId} = u.old_key_id
       and t.${c.ciphertext} = decode(u.old_ct, 'hex')`,
    [
      rows.map((r) => r.id),
      rows.map((r) => hex(r.ciphertext)),
      rows.map((r) => r.key_id),
      fresh.map((s) => hex(s.ciphertext)),
      fresh.map((s) => hex(s.nonce)),
      fresh.map((s) => s.keyId),
    ],
  );
  return {
    lastId: rows[rows.length - 1]!.id,
    read: rows.length,
    resealed: updated.count,
    changed: rows.length - updated.count,
  };
}

/** The refusal for rows under a key the keyring lacks: names the setting, never a key. */
export function missingKey(c: SealedColumn, keyId: string, rows?: number): DecryptionError {
  const count = rows === undefined ? 'rows' : `${rows} row(s)`;
  return new DecryptionError(
    `${count} of ${c.table} are sealed with data key ${keyId}, which is not configured: ` +
      'add that key to TOLLGATE_DATA_KEYS_OLD (comma-separated base64) and run again',
  );
}

/** The key ids the columns' rows are sealed with that the keyring lacks, with their row counts. */
export async function missingKeys(
  sql: Sql,
  keyring: Keyring,
  columns: readonly SealedColumn[],
): Promise<{ column: SealedColumn; keyId: string; rows: number }[]> {
  const missing = [];
  for (const column of columns)
    for (const k of await countByKey(sql, column))
      if (!keyring.byId.has(k.keyId)) missing.push({ column, keyId: k.keyId, rows: k.rows });
  return missing;
}

/** Refuses (a DecryptionError naming TOLLGATE_DATA_KEYS_OLD) when missingKeys finds any. */
export async function refuseMissingKeys(
  sql: Sql,
  keyring: Keyring,
  columns: readonly SealedColumn[],
): Promise<void> {
  const [m] = await missingKeys(sql, keyring, columns);
  if (m) throw missingKey(m.column, m.keyId, m.rows);
}

/** The IVMS101 payloads of travelrule_transactions (crypto.ts sealPayload). */
export const IVMS101_COLUMN: SealedColumn = {
  table: 'travelrule_transactions',
  id: 'id',
  idType: 'uuid',
  ciphertext: 'ivms101_ciphertext',
  nonce: 'ivms101_nonce',
  keyId: 'ivms101_key_id',
  context: associatedData,
  what: (id) => `travel rule payload of ${id}`,
};
