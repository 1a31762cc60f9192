import type { Sql } from '../db/index.js';
import { secretHash } from '../ids.js';
import { CALLBACK_INFO, TRAVEL_ADDRESS_INFO, tokenWith } from './callback-token.js';
import type { DataKey } from './crypto.js';
import { isTerminal } from './lifecycle.js';
import { STATUSES } from './status.js';

/**
 * Tokens that outlive the data key that made them. A callback URL given to another VASP and a
 * Travel Address given to a customer carry an HMAC under a key derived from a data key
 * (callback-token.ts); once that key is removed, the HMAC can no longer be checked. So while an
 * old key is still configured, `tollgate data-key rotate` makes again every token it made —
 * HMACs are deterministic — for each transfer not finished and each issued Travel Address, and
 * records their SHA-256 (table retired_key_tokens). A token whose key is gone is then found by
 * its hash. The hash cannot make a token: a copy of the database still cannot.
 */

export type TokenKind = 'callback' | 'travel_address';

const INFO: Record<TokenKind, string> = {
  callback: CALLBACK_INFO,
  travel_address: TRAVEL_ADDRESS_INFO,
};

/** Where a callback can still arrive: transfers not in a terminal status. */
const OPEN_STATUSES = STATUSES.filter((s) => !isTerminal(s));

export interface RecordedTokens {
  key_id: string;
  callbacks: number;
  travel_addresses: number;
}

async function recordKind(sql: Sql, key: DataKey, kind: TokenKind, batch: number): Promise<number> {
  let recorded = 0;
  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const rows =
      kind === 'callback'
        ? await sql<{ id: string }[]>`
            select id from travelrule_transactions
            where id > ${after} and status = any(${OPEN_STATUSES as unknown as string[]}::text[])
            order by id limit ${batch}`
        : await sql<{ id: string }[]>`
            select id from travel_addresses where id > ${after} order by id limit ${batch}`;
    if (rows.length === 0) return recorded;
    after = rows.at(-1)!.id;
    const ids = rows.map((r) => r.id);
    const hashes = ids.map((id) => secretHash(tokenWith(key, id, INFO[kind])));
    const inserted = await sql`
      insert into retired_key_tokens (token_hash, kind, target, key_id)
      select h, ${kind}, t, ${key.id} from unnest(${hashes}::text[], ${ids}::uuid[]) as u(h, t)
      on conflict (token_hash) do nothing`;
    recorded += inserted.count;
  }
}

/**
 * Records the hashes of the tokens `key` made for transfers not finished and for every issued
 * Travel Address (what a rerun already recorded is skipped). Returns how many were new.
 */
export async function recordTokensOf(
  sql: Sql,
  key: DataKey,
  batch: number,
): Promise<RecordedTokens> {
  const recorded = {
    key_id: key.id,
    callbacks: await recordKind(sql, key, 'callback', batch),
    travel_addresses: await recordKind(sql, key, 'travel_address', batch),
  };
  await sql`
    insert into data_key_tokens_recorded (key_id, recorded_at) values (${key.id}, now())
    on conflict (key_id) do update set recorded_at = excluded.recorded_at`;
  return recorded;
}

/** The row a token names, found by its recorded hash; undefined when none was recorded. */
export async function findRetiredToken(
  sql: Sql,
  kind: TokenKind,
  token: string,
): Promise<string | undefined> {
  const [row] = await sql<{ target: string }[]>`
    select target from retired_key_tokens where token_hash = ${secretHash(token)} and kind = ${kind}`;
  return row?.target;
}

/** Per data key whose tokens a rotate recorded: how many, and when it last did. */
export async function countRetiredTokens(
  sql: Sql,
): Promise<Map<string, { tokens: number; recorded_at: Date }>> {
  const rows = await sql<{ key_id: string; tokens: number; recorded_at: Date }[]>`
    select d.key_id, d.recorded_at,
      (select count(*) from retired_key_tokens t where t.key_id = d.key_id)::int as tokens
    from data_key_tokens_recorded d`;
  return new Map(rows.map((r) => [r.key_id, { tokens: r.tokens, recorded_at: r.recorded_at }]));
}
