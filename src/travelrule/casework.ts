import { randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/index.js';
import type { Sql } from '../db/index.js';
import { DecryptionError, openBytes, sealBytes, type Keyring } from './crypto.js';
import { TravelRuleError } from './errors.js';
import { mustGet } from './flow.js';
import type { SealedColumn } from './rekey.js';

/**
 * The compliance team's casework on a travel rule transaction: who is on it (assignment) and
 * their notes. Both are changes by an operator, audited in the same database transaction.
 *
 * Notes are free text that may name persons, so they are sealed with the data key like the
 * IVMS101 payload (NOTE_COLUMN, re-sealed by `tollgate data-key rotate`), append-only (a note
 * is corrected by another note), never logged; the audit entry names the note's id, never its
 * text. Reading them is part of reading the transaction's page (itself audited).
 */

/** Longest note kept, in characters. */
export const NOTE_MAX_CHARS = 4000;

/** Roles a case can be assigned to: the ones that can decide it. */
const ASSIGNABLE_ROLES = ['reviewer', 'admin'];

function noteContext(noteId: string): string {
  return `tollgate:travelrule_notes.body:v1:${noteId}`;
}

/** The sealed note texts, for re-sealing under a new data key (`tollgate data-key rotate`). */
export const NOTE_COLUMN: SealedColumn = {
  table: 'travelrule_notes',
  id: 'id',
  idType: 'uuid',
  ciphertext: 'body_sealed',
  nonce: 'body_nonce',
  keyId: 'body_key_id',
  context: noteContext,
  what: (id) => `travel rule note ${id}`,
};

export interface Note {
  id: string;
  author: string;
  /** null when no configured data key opens it (the page says so). */
  body: string | null;
  created_at: Date;
}

export interface Assignment {
  /** The assignee's login; null when nobody is on the case. */
  login: string | null;
  at: Date | null;
}

/** Adds a note by `author` (an operator's login) to a transaction; returns the note's id. */
export async function addNote(
  sql: Sql,
  keyring: Keyring,
  transactionId: string,
  author: string,
  text: string,
): Promise<string> {
  const body = text.replace(/\r\n?/g, '\n').trim();
  if (body === '') throw new TravelRuleError('invalid', 'note: the note is empty');
  if ([...body].length > NOTE_MAX_CHARS)
    throw new TravelRuleError('invalid', `note: at most ${NOTE_MAX_CHARS} characters`);
  await mustGet(sql, transactionId);
  const id = randomUUID();
  const sealed = sealBytes(keyring, noteContext(id), Buffer.from(body, 'utf8'));
  await sql.begin(async (tx) => {
    await tx`
      insert into travelrule_notes (id, transaction_id, author, body_sealed, body_nonce, body_key_id)
      values (${id}, ${transactionId}, ${author}, ${sealed.ciphertext}, ${sealed.nonce}, ${sealed.keyId})`;
    await recordAudit(tx, {
      actor: author,
      action: 'travelrule_note',
      target: transactionId,
      details: { note: id },
    });
  });
  return id;
}

/** A transaction's notes, oldest first. */
export async function listNotes(
  sql: Sql,
  keyring: Keyring,
  transactionId: string,
): Promise<Note[]> {
  const rows = await sql<
    {
      id: string;
      author: string;
      body_sealed: Buffer;
      body_nonce: Buffer;
      body_key_id: string;
      created_at: Date;
    }[]
  >`
    select id, author, body_sealed, body_nonce, body_key_id, created_at
    from travelrule_notes where transaction_id = ${transactionId} order by created_at, id`;
  return rows.map((r) => {
    let body: string | null;
    try {
      body = openBytes(
        keyring,
        noteContext(r.id),
        { ciphertext: r.body_sealed, nonce: r.body_nonce, keyId: r.body_key_id },
        NOTE_COLUMN.what(r.id),
      ).toString('utf8');
    } catch (err) {
      if (!(err instanceof DecryptionError)) throw err;
      body = null;
    }
    return { id: r.id, author: r.author, body, created_at: r.created_at };
  });
}

export async function getAssignment(sql: Sql, transactionId: string): Promise<Assignment> {
  const [row] = await sql<{ login: string | null; at: Date | null }[]>`
    select o.login, t.assigned_at as at
    from travelrule_transactions t left join operators o on o.id = t.assigned_to
    where t.id = ${transactionId}`;
  return row ?? { login: null, at: null };
}

/**
 * Puts `assignee` (an active reviewer or admin, by login) on the case, or nobody (null). `by`
 * is the operator doing it. Returns the assignment it replaced. Assigning the one already on the
 * case changes nothing and writes no audit entry.
 */
export async function assignTransaction(
  sql: Sql,
  transactionId: string,
  assignee: string | null,
  by: string,
): Promise<{ previous: string | null; changed: boolean }> {
  return sql.begin(async (tx) => {
    let operatorId: string | null = null;
    if (assignee !== null) {
      const [o] = await tx<{ id: string; role: string; disabled_at: Date | null }[]>`
        select id::text, role, disabled_at from operators where login = ${assignee}`;
      if (!o || o.disabled_at)
        throw new TravelRuleError('invalid', 'assignee: no active operator with this login');
      if (!ASSIGNABLE_ROLES.includes(o.role))
        throw new TravelRuleError(
          'invalid',
          'assignee: a case is assigned to a reviewer or an admin (a viewer cannot decide it)',
        );
      operatorId = o.id;
    }
    // The row lock orders concurrent assignments: each sees the one before it.
    const [current] = await tx<{ assigned_to: string | null; login: string | null }[]>`
      select t.assigned_to::text, o.login
      from travelrule_transactions t left join operators o on o.id = t.assigned_to
      where t.id = ${transactionId} for update of t`;
    if (!current) throw new TravelRuleError('not_found', 'no travel rule transaction with this id');
    if (current.assigned_to === operatorId) return { previous: current.login, changed: false };
    await tx`
      update travelrule_transactions
      set assigned_to = ${operatorId}::bigint,
        assigned_at = case when ${operatorId}::bigint is null then null else now() end
      where id = ${transactionId}`;
    await recordAudit(tx, {
      actor: by,
      action: 'travelrule_assign',
      target: transactionId,
      details: { assignee, previous: current.login },
    });
    return { previous: current.login, changed: true };
  });
}
