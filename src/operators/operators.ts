import { PermanentError } from '../errors.js';
import type { Sql } from '../db/index.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';

/**
 * Operators of the compliance team (table `operators`): people who review travel rule
 * transactions in the dashboard. Separate from API keys; created and managed with
 * `tollgate operators …`.
 */

export type OperatorRole = 'viewer' | 'reviewer' | 'admin';

export const OPERATOR_ROLES: readonly OperatorRole[] = ['viewer', 'reviewer', 'admin'];

export interface Operator {
  id: string;
  login: string;
  role: OperatorRole;
}

/** Consecutive failed logins that lock an account, and for how long. */
export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MINUTES = 15;

export const MIN_PASSWORD_LENGTH = 12;
/** Longer passwords are refused rather than hashed (scrypt cost grows with the input). */
export const MAX_PASSWORD_LENGTH = 1024;

const LOGIN = /^[a-z0-9._@-]{3,64}$/;

/** An operator request that cannot succeed as given (bad login, short password, duplicate). */
export class OperatorInputError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorInputError';
  }
}

/**
 * Verified against when the login is unknown, so that an unknown login costs the same scrypt
 * as a known one. The password it hashes was random and is not kept.
 */
const DUMMY_HASH =
  'scrypt$32768$8$1$/AN2Jxx2gs9P6HWupjm/BQ==$zuv4Wp3RU2BwIqKWhMCqELqRUmdgBSIbbIYf/6qnc5s=';

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** viewer < reviewer < admin. */
export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}

function normaliseLogin(login: string): string {
  const lower = login.trim().toLowerCase();
  if (!LOGIN.test(lower))
    throw new OperatorInputError('The login must be 3 to 64 characters of a-z, 0-9 and . _ @ -.');
  return lower;
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new OperatorInputError(
      `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
    );
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new OperatorInputError(`The password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
}

export async function createOperator(
  sql: Sql,
  login: string,
  role: OperatorRole,
  password?: string,
): Promise<Operator & { password: string }> {
  const normal = normaliseLogin(login);
  if (!isOperatorRole(role))
    throw new OperatorInputError(`The role must be one of ${OPERATOR_ROLES.join(', ')}.`);
  if (password !== undefined) checkPassword(password);
  const secret = password ?? generatePassword();
  const hash = await hashPassword(secret);
  const [row] = await sql<{ id: string }[]>`
    insert into operators (login, password_hash, role) values (${normal}, ${hash}, ${role})
    on conflict (login) do nothing
    returning id`;
  if (!row) throw new OperatorInputError(`An operator with login "${normal}" exists already.`);
  return { id: row.id, login: normal, role, password: secret };
}

export type AuthenticationResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: 'invalid' | 'locked' | 'disabled'; locked_until?: Date };

interface OperatorRow extends Operator {
  password_hash: string;
  locked_until: Date | null;
  locked: boolean;
  disabled: boolean;
}

/**
 * Checks a login and password. After MAX_FAILED_LOGINS consecutive failures the account is
 * locked for LOCKOUT_MINUTES; while locked the password is not checked at all, so a right
 * password gets the same answer as a wrong one. The counters move in single UPDATEs guarded by
 * the lock state, so concurrent attempts cannot skip the lock.
 */
export async function authenticateOperator(
  sql: Sql,
  login: string,
  password: string,
): Promise<AuthenticationResult> {
  const normal = login.trim().toLowerCase();
  const [row] =
    LOGIN.test(normal) && password.length <= MAX_PASSWORD_LENGTH
      ? await sql<OperatorRow[]>`
        select id, login, role, password_hash, locked_until,
               coalesce(locked_until > now(), false) as locked, disabled_at is not null as disabled
        from operators where login = ${normal}`
      : [];
  if (!row) {
    await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), DUMMY_HASH);
    return { ok: false, reason: 'invalid' };
  }
  if (row.disabled) {
    await verifyPassword(password, DUMMY_HASH);
    return { ok: false, reason: 'disabled' };
  }
  if (row.locked) return { ok: false, reason: 'locked', locked_until: row.locked_until! };

  if (await verifyPassword(password, row.password_hash)) {
    const [done] = await sql<{ id: string }[]>`
      update operators set failed_logins = 0, locked_until = null
      where id = ${row.id} and disabled_at is null and (locked_until is null or locked_until <= now())
      returning id`;
    if (done) return { ok: true, operator: { id: row.id, login: row.login, role: row.role } };
    return stateAfterRace(sql, row.id);
  }

  // The failure that reaches the limit locks the account and starts a new count for afterwards.
  const [failed] = await sql<{ locked_until: Date | null }[]>`
    update operators set
      failed_logins = case when failed_logins + 1 >= ${MAX_FAILED_LOGINS} then 0 else failed_logins + 1 end,
      locked_until = case when failed_logins + 1 >= ${MAX_FAILED_LOGINS} then now() + make_interval(mins => ${LOCKOUT_MINUTES}) else locked_until end
    where id = ${row.id} and disabled_at is null and (locked_until is null or locked_until <= now())
    returning locked_until`;
  if (!failed) return stateAfterRace(sql, row.id);
  if (failed.locked_until && failed.locked_until > new Date())
    return { ok: false, reason: 'locked', locked_until: failed.locked_until };
  return { ok: false, reason: 'invalid' };
}

/** The account was locked or disabled by a concurrent request between our read and our update. */
async function stateAfterRace(sql: Sql, id: string): Promise<AuthenticationResult> {
  const [row] = await sql<{ locked_until: Date | null; disabled: boolean }[]>`
    select locked_until, disabled_at is not null as disabled from operators where id = ${id}`;
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.disabled) return { ok: false, reason: 'disabled' };
  return {
    ok: false,
    reason: 'locked',
    ...(row.locked_until ? { locked_until: row.locked_until } : {}),
  };
}

export interface OperatorListing extends Operator {
  created_at: Date;
  disabled_at: Date | null;
  /** Set only while a lock is in force. */
  locked_until: Date | null;
}

export async function listOperators(sql: Sql): Promise<OperatorListing[]> {
  return sql<OperatorListing[]>`
    select id, login, role, created_at, disabled_at, case when locked_until > now() then locked_until end as locked_until
    from operators order by login`;
}

/** Disables an active operator for good (the row stays for the history's actor ids). */
export async function disableOperator(sql: Sql, login: string): Promise<boolean> {
  const rows =
    await sql`update operators set disabled_at = now() where login = ${login.trim().toLowerCase()} and disabled_at is null returning id`;
  return rows.length > 0;
}

/**
 * Sets a new password (the given one, else a generated one) and clears a lockout. Returns the
 * new password, or undefined when there is no such operator. A disabled operator stays disabled.
 */
export async function resetOperatorPassword(
  sql: Sql,
  login: string,
  password?: string,
): Promise<string | undefined> {
  if (password !== undefined) checkPassword(password);
  const secret = password ?? generatePassword();
  const hash = await hashPassword(secret);
  const rows = await sql`
    update operators set password_hash = ${hash}, failed_logins = 0, locked_until = null
    where login = ${login.trim().toLowerCase()} returning id`;
  return rows.length > 0 ? secret : undefined;
}
